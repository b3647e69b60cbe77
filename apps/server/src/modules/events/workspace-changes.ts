import type { Db } from '../../db/db';
import { readVersionsOf } from './events.repository';

export type ChangeListener = (version: number) => void;

/**
 * Tells open screens that their workspace's data changed. Every change to what the lists and the dashboard show
 * (products, variants, mockups, publications, orders, AI generations) moves the workspace's row of
 * `workspace_read_versions` on at commit, by triggers (migration 0012_read_versions), whichever instance or job
 * wrote it. One timer per instance reads the rows of the workspaces that have a screen open, in one query, and calls
 * their listeners when a version moved: a job finishing on another instance reaches the screen within one period.
 */
export class WorkspaceChanges {
  private readonly listeners = new Map<string, Set<ChangeListener>>();
  private readonly versions = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly db: Db,
    private readonly periodMs: number,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** How many screens of this workspace listen on this instance. */
  count(workspaceId: string): number {
    return this.listeners.get(workspaceId)?.size ?? 0;
  }

  subscribe(workspaceId: string, listener: ChangeListener): () => void {
    let set = this.listeners.get(workspaceId);
    if (!set) {
      set = new Set();
      this.listeners.set(workspaceId, set);
    }
    set.add(listener);
    this.timer ??= setInterval(() => void this.poll(), this.periodMs);
    this.timer.unref();
    return () => {
      const current = this.listeners.get(workspaceId);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.listeners.delete(workspaceId);
        this.versions.delete(workspaceId);
      }
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** One read of every watched workspace's version; listeners hear of each one that moved since the last read. */
  async poll(): Promise<void> {
    if (this.reading || this.listeners.size === 0) return;
    this.reading = true;
    try {
      const ids = [...this.listeners.keys()];
      const read = await readVersionsOf(this.db, ids);
      for (const id of ids) {
        const version = read.get(id) ?? 0;
        const before = this.versions.get(id);
        this.versions.set(id, version);
        // The first read is where a screen starts from: it has just loaded what that version holds.
        if (before === undefined || before === version) continue;
        for (const listener of this.listeners.get(id) ?? []) listener(version);
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.reading = false;
    }
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
