/**
 * Reads of a workspace's read version (`workspace_read_versions`, see the schema), shared by callers who ask at
 * once: a caller joins a read that starts after it asked, never one already under way (which might have been taken
 * before a change the caller already saw committed), so at most two reads per workspace are in flight, however many
 * requests wait. A hundred requests for a list cost a few version queries, not a hundred.
 */
export function coalescedReads(
  read: (workspaceId: string) => Promise<number>,
): (workspaceId: string) => Promise<number> {
  const running = new Map<string, Promise<number>>();
  const queued = new Map<string, Promise<number>>();
  const start = (workspaceId: string) => {
    const promise: Promise<number> = read(workspaceId).finally(() => {
      if (running.get(workspaceId) === promise) running.delete(workspaceId);
    });
    running.set(workspaceId, promise);
    return promise;
  };
  return (workspaceId) => {
    const next = queued.get(workspaceId);
    if (next) return next;
    const current = running.get(workspaceId);
    if (!current) return start(workspaceId);
    const after = current
      .catch(() => undefined)
      .then(() => {
        queued.delete(workspaceId);
        return start(workspaceId);
      });
    queued.set(workspaceId, after);
    return after;
  };
}
