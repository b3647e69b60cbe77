import type { PublishContext } from './store-publisher';

/**
 * The first step of a publish for a store that makes a product by one call and fills it in by others (an adapter whose
 * store has no upsert): carry on with the remote product an earlier attempt recorded, unless the store has lost it
 * since; else the one a create whose answer was lost made (found by the adapter: our SKUs, our title); else create it.
 * A found or made id is recorded (`saveRemoteId`) before anything else is sent, so a retry never makes a second one.
 * Answers the remote id, and what the create answered when this attempt made it.
 */
export async function resumeOrCreate<T>(
  ctx: PublishContext,
  steps: {
    /** Whether the store still holds this product (false on its 404). */
    exists(remoteId: string): Promise<boolean>;
    /** A product a lost create made, or null. */
    findLost(): Promise<string | null>;
    /** What the seller reads while the create runs. */
    creating: string;
    create(): Promise<{ remoteId: string; made: T }>;
  },
): Promise<{ remoteId: string; created: T | null }> {
  let remoteId = ctx.remoteProductId;
  // The recorded product may have been deleted in the store since: then a new one is made.
  if (remoteId && !(await steps.exists(remoteId))) remoteId = null;
  if (!remoteId) {
    remoteId = await steps.findLost();
    if (remoteId) await ctx.saveRemoteId(remoteId);
  }
  if (remoteId) return { remoteId, created: null };
  await ctx.progress?.(steps.creating);
  const { remoteId: made, made: created } = await steps.create();
  await ctx.saveRemoteId(made);
  return { remoteId: made, created };
}
