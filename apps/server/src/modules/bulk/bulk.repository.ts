import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { bulkItems, bulkPushes, bulkRuns, designs, integrations, products, schedules } from '../../db/schema';

export type BulkRunRow = typeof bulkRuns.$inferSelect;
export type BulkItemRow = typeof bulkItems.$inferSelect;
export type BulkPushRow = typeof bulkPushes.$inferSelect;
export type BulkListing = NonNullable<BulkItemRow['listing']>;

/** The ids of `ids` that are designs of the workspace. */
export async function existingDesignIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ id: designs.id })
    .from(designs)
    .where(and(eq(designs.workspaceId, workspaceId), inArray(designs.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The run, one item per design x blank and one push per item and store, in one transaction. */
export async function insertRun(
  db: Db,
  workspaceId: string,
  request: unknown,
  pairs: { designId: string; catalogProductId: number }[],
  storeIds: string[],
): Promise<BulkRunRow> {
  return db.transaction(async (tx) => {
    const [run] = await tx.insert(bulkRuns).values({ workspaceId, request }).returning();
    if (!run) throw new Error('bulk run insert returned nothing');
    const items = await tx
      .insert(bulkItems)
      .values(pairs.map((p, position) => ({ workspaceId, runId: run.id, position, ...p })))
      .onConflictDoNothing()
      .returning({ id: bulkItems.id });
    if (storeIds.length > 0) {
      await tx
        .insert(bulkPushes)
        .values(
          items.flatMap((item) =>
            storeIds.map((integrationId, position) => ({
              workspaceId,
              runId: run.id,
              itemId: item.id,
              integrationId,
              position,
            })),
          ),
        )
        .onConflictDoNothing();
    }
    return run;
  });
}

/** A run's pushes with their store's platform and name, and a scheduled one's schedule (its planned time, its state). */
export function pushesOf(db: Db, runId: string) {
  return db
    .select({
      push: bulkPushes,
      platform: integrations.platform,
      storeName: integrations.storeName,
      schedule: { runAt: schedules.runAt, status: schedules.status },
    })
    .from(bulkPushes)
    .innerJoin(integrations, eq(integrations.id, bulkPushes.integrationId))
    .leftJoin(schedules, eq(schedules.id, bulkPushes.scheduleId))
    .where(eq(bulkPushes.runId, runId))
    .orderBy(asc(bulkPushes.position));
}

/** How many of the run's pushes to this store are scheduled already (the next one's place in the store's line). */
export async function scheduledPushCount(db: Db, runId: string, integrationId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(bulkPushes)
    .where(
      and(eq(bulkPushes.runId, runId), eq(bulkPushes.integrationId, integrationId), eq(bulkPushes.status, 'scheduled')),
    );
  return row?.n ?? 0;
}

/** The run's next push to make: of a made product, in the order the products were listed, then the stores. */
export async function nextPush(db: Db, runId: string): Promise<(BulkPushRow & { productId: string }) | null> {
  const [row] = await db
    .select({ push: bulkPushes, productId: bulkItems.productId, position: bulkItems.position })
    .from(bulkPushes)
    .innerJoin(bulkItems, eq(bulkItems.id, bulkPushes.itemId))
    .where(
      and(
        eq(bulkPushes.runId, runId),
        inArray(bulkPushes.status, ['pending', 'pushing']),
        eq(bulkItems.status, 'done'),
        isNotNull(bulkItems.productId),
      ),
    )
    .orderBy(asc(bulkItems.position), asc(bulkPushes.position))
    .limit(1);
  return row?.productId ? { ...row.push, productId: row.productId } : null;
}

/** A push under way (its start kept when a resumed run takes it up again). */
export async function markPushing(db: Db, pushId: string, now: Date): Promise<void> {
  await db
    .update(bulkPushes)
    .set({ status: 'pushing', startedAt: sql`coalesce(${bulkPushes.startedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(bulkPushes.id, pushId));
}

export async function settlePushRow(
  db: Db,
  pushId: string,
  outcome:
    | { status: 'pushed'; remoteUrl: string | null }
    | { status: 'scheduled'; scheduleId: string }
    | { status: 'failed'; error: string }
    /** The push job deferred itself until the store's spent limit is back: `waiting` says until when (no schedule). */
    | { status: 'scheduled'; waiting: string },
  now: Date,
): Promise<void> {
  const set =
    'waiting' in outcome
      ? { status: outcome.status, scheduleId: null, error: outcome.waiting }
      : { ...outcome, ...(outcome.status === 'failed' ? {} : { error: null }) };
  await db
    .update(bulkPushes)
    .set({ ...set, finishedAt: now })
    .where(eq(bulkPushes.id, pushId));
}

/** The job gave up with work left: the run says so (only while it is still running under that attempt). */
export async function failRun(db: Db, runId: string, attempt: number, error: string, now: Date): Promise<void> {
  await db
    .update(bulkRuns)
    .set({ status: 'failed', error, finishedAt: now })
    .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.status, 'running'), eq(bulkRuns.attempt, attempt)));
}

/** Every run still running, in any workspace (the sweep at start-up). */
export function runningRuns(db: Db): Promise<BulkRunRow[]> {
  return db.select().from(bulkRuns).where(eq(bulkRuns.status, 'running'));
}

export async function findRun(db: Db, workspaceId: string, runId: string): Promise<BulkRunRow | null> {
  const [row] = await db
    .select()
    .from(bulkRuns)
    .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.workspaceId, workspaceId)));
  return row ?? null;
}

export function itemsOf(db: Db, runId: string): Promise<BulkItemRow[]> {
  return db.select().from(bulkItems).where(eq(bulkItems.runId, runId)).orderBy(asc(bulkItems.position));
}

/** Takes an item for this job: pending, or running under a job that died. Null when another outcome is recorded. */
export async function claimItem(db: Db, itemId: string): Promise<BulkItemRow | null> {
  const [row] = await db
    .update(bulkItems)
    .set({ status: 'running', updatedAt: sql`now()` })
    .where(and(eq(bulkItems.id, itemId), inArray(bulkItems.status, ['pending', 'running'])))
    .returning();
  return row ?? null;
}

/** Records the mockup made for one colour at once, so a resumed run does not render it again. */
export async function recordMockup(db: Db, itemId: string, colour: string, mockupId: string): Promise<void> {
  await db
    .update(bulkItems)
    .set({
      mockupIds: sql`${bulkItems.mockupIds} || jsonb_build_object(${colour}::text, ${mockupId}::text)`,
      updatedAt: sql`now()`,
    })
    .where(eq(bulkItems.id, itemId));
}

export async function recordListing(db: Db, itemId: string, listing: BulkListing): Promise<void> {
  await db.update(bulkItems).set({ listing, updatedAt: sql`now()` }).where(eq(bulkItems.id, itemId));
}

/** Records the id the item's product is about to be inserted under. */
export async function recordPlannedProduct(db: Db, itemId: string, productId: string): Promise<void> {
  await db
    .update(bulkItems)
    .set({ plannedProductId: productId, updatedAt: sql`now()` })
    .where(eq(bulkItems.id, itemId));
}

/** Whether the workspace has a product of this id. */
export async function productExists(db: Db, workspaceId: string, productId: string): Promise<boolean> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.workspaceId, workspaceId)));
  return rows.length === 1;
}

/** Records the product made for an item: true when this call recorded it, false when the item already has one. */
export async function recordProduct(db: Db, itemId: string, productId: string): Promise<boolean> {
  const rows = await db
    .update(bulkItems)
    .set({ productId, status: 'done', error: null, updatedAt: sql`now()` })
    .where(and(eq(bulkItems.id, itemId), isNull(bulkItems.productId)))
    .returning({ id: bulkItems.id });
  return rows.length === 1;
}

/** An item whose product was already made (by a run that died before marking it): done. */
export async function markDone(db: Db, itemId: string): Promise<void> {
  await db
    .update(bulkItems)
    .set({ status: 'done', error: null, updatedAt: sql`now()` })
    .where(eq(bulkItems.id, itemId));
}

/** An item that could not be made (one whose product another job recorded stays done). */
export async function markFailed(db: Db, itemId: string, error: string): Promise<void> {
  await db
    .update(bulkItems)
    .set({ status: 'failed', error, updatedAt: sql`now()` })
    .where(and(eq(bulkItems.id, itemId), isNull(bulkItems.productId)));
}

/** Done once no item is left to make and no push of a made product (not deleted since) is left to make. */
export async function finishRunIfSettled(db: Db, runId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(bulkRuns)
    .set({ status: 'done', finishedAt: now })
    .where(
      and(
        eq(bulkRuns.id, runId),
        sql`not exists (select 1 from ${bulkItems} where ${bulkItems.runId} = ${runId} and ${bulkItems.status} in ('pending', 'running'))`,
        sql`not exists (select 1 from ${bulkPushes} join ${bulkItems} on ${bulkItems.id} = ${bulkPushes.itemId} where ${bulkPushes.runId} = ${runId} and ${bulkItems.status} = 'done' and ${bulkItems.productId} is not null and ${bulkPushes.status} in ('pending', 'pushing'))`,
      ),
    )
    .returning({ id: bulkRuns.id });
  return rows.length === 1;
}

/** Until `ms` from now by the database's clock (the same clock for every instance). */
const fromNow = (ms: number) => sql`clock_timestamp() + ${String(ms)}::double precision * interval '1 millisecond'`;

/**
 * The run claimed (or its claim renewed) by one job attempt `owner` for `ms`: true unless another attempt holds a
 * claim that has not lapsed.
 */
export async function claimRun(db: Db, runId: string, owner: string, ms: number): Promise<boolean> {
  const rows = await db
    .update(bulkRuns)
    .set({ claimedBy: owner, claimedUntil: fromNow(ms) })
    .where(
      and(
        eq(bulkRuns.id, runId),
        sql`(${bulkRuns.claimedUntil} is null or ${bulkRuns.claimedUntil} < clock_timestamp() or ${bulkRuns.claimedBy} = ${owner})`,
      ),
    )
    .returning({ id: bulkRuns.id });
  return rows.length === 1;
}

/** The claim of `owner` given up (a claim another attempt took since is left alone). */
export async function releaseRun(db: Db, runId: string, owner: string): Promise<void> {
  await db
    .update(bulkRuns)
    .set({ claimedBy: null, claimedUntil: null })
    .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.claimedBy, owner)));
}

/** The run moved from slice `from` to the next, by the attempt that holds it (nothing when `owner` lost its claim). */
export async function nextSlice(db: Db, runId: string, owner: string, from: number): Promise<void> {
  await db
    .update(bulkRuns)
    .set({ slice: from + 1 })
    .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.claimedBy, owner), eq(bulkRuns.slice, from)));
}

/**
 * Failed items and pushes back to pending and the run running again under its next attempt; null when nothing
 * failed (a run whose job gave up always goes again: it has work left).
 */
export async function requeueFailed(db: Db, workspaceId: string, runId: string): Promise<BulkRunRow | null> {
  return db.transaction(async (tx) => {
    const items = await tx
      .update(bulkItems)
      .set({ status: 'pending', error: null, updatedAt: sql`now()` })
      .where(and(eq(bulkItems.runId, runId), eq(bulkItems.workspaceId, workspaceId), eq(bulkItems.status, 'failed')))
      .returning({ id: bulkItems.id });
    const pushes = await tx
      .update(bulkPushes)
      .set({ status: 'pending', error: null, startedAt: null, finishedAt: null })
      .where(and(eq(bulkPushes.runId, runId), eq(bulkPushes.workspaceId, workspaceId), eq(bulkPushes.status, 'failed')))
      .returning({ id: bulkPushes.id });
    const [was] = await tx
      .select({ status: bulkRuns.status })
      .from(bulkRuns)
      .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.workspaceId, workspaceId)));
    if (items.length === 0 && pushes.length === 0 && was?.status !== 'failed') return null;
    const [run] = await tx
      .update(bulkRuns)
      .set({
        status: 'running',
        error: null,
        finishedAt: null,
        startedAt: sql`now()`,
        attempt: sql`${bulkRuns.attempt} + 1`,
      })
      .where(and(eq(bulkRuns.id, runId), eq(bulkRuns.workspaceId, workspaceId)))
      .returning();
    return run ?? null;
  });
}

/** A run whose job could not be sent: gone with its items, as if never started. */
export async function deleteRun(db: Db, runId: string): Promise<void> {
  await db.delete(bulkRuns).where(eq(bulkRuns.id, runId));
}
