import { and, asc, eq, gte, inArray, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { schedules } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/** The schedule aggregate's SQL: a scheduled upload of a product to a store, scoped by workspace. */

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewSchedule = Omit<typeof schedules.$inferInsert, 'id' | 'jobId'>;

/** A schedule of the workspace, or 404. */
export function findSchedule(db: Db, workspaceId: string, id: string): Promise<ScheduleRow> {
  return findInWorkspace('Schedule', id, async () => {
    const [row] = await db
      .select()
      .from(schedules)
      .where(and(eq(schedules.id, id), eq(schedules.workspaceId, workspaceId)));
    return row;
  });
}

/** A schedule by id alone (its job's: the queue carries only the id). */
export async function scheduleById(db: Db, id: string): Promise<ScheduleRow | null> {
  const [row] = await db.select().from(schedules).where(eq(schedules.id, id));
  return row ?? null;
}

export async function insertSchedule(db: Db, values: NewSchedule): Promise<ScheduleRow> {
  const [row] = await db.insert(schedules).values(values).returning();
  if (!row) throw new Error('schedule insert returned nothing');
  return row;
}

/** A schedule whose job could not be queued goes again (it would promise a push that never comes). */
export async function deleteSchedule(db: Db, id: string): Promise<void> {
  await db.delete(schedules).where(eq(schedules.id, id));
}

export async function setScheduleJob(db: Db, id: string, jobId: string): Promise<ScheduleRow | null> {
  const [row] = await db.update(schedules).set({ jobId }).where(eq(schedules.id, id)).returning();
  return row ?? null;
}

/** Cancels a schedule only while it is pending (a worker may have started it since it was read); null otherwise. */
export async function cancelPendingSchedule(db: Db, id: string): Promise<ScheduleRow | null> {
  const [row] = await db
    .update(schedules)
    .set({ status: 'cancelled' })
    .where(and(eq(schedules.id, id), eq(schedules.status, 'pending')))
    .returning();
  return row ?? null;
}

/** A product's schedules that were not cancelled, soonest first. */
export function productSchedules(db: Db, workspaceId: string, productId: string): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(schedules)
    .where(
      and(
        eq(schedules.workspaceId, workspaceId),
        eq(schedules.productId, productId),
        ne(schedules.status, 'cancelled'),
      ),
    )
    .orderBy(asc(schedules.runAt));
}

/** The workspace's schedules still to run (pending or running), soonest first. */
export function upcomingSchedules(db: Db, workspaceId: string, limit: number): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(schedules)
    .where(and(eq(schedules.workspaceId, workspaceId), inArray(schedules.status, ['pending', 'running'])))
    .orderBy(asc(schedules.runAt))
    .limit(limit);
}

/**
 * Marks the schedule running if it is still due (at `runAt`, when the job names the time it was queued for: a row
 * moved later since waits for its own job). A retry attempt may also take a row left 'running' by an attempt whose
 * process died.
 */
export async function claimScheduleRow(
  db: Db,
  scheduleId: string,
  retry: boolean,
  runAt: Date | null,
): Promise<ScheduleRow | null> {
  const [row] = await db
    .update(schedules)
    .set({ status: 'running', error: null })
    .where(
      and(
        eq(schedules.id, scheduleId),
        retry ? or(eq(schedules.status, 'pending'), eq(schedules.status, 'running')) : eq(schedules.status, 'pending'),
        runAt ? eq(schedules.runAt, runAt) : undefined,
      ),
    )
    .returning();
  return row ?? null;
}

export async function finishScheduleRow(
  db: Db,
  scheduleId: string,
  outcome:
    | { status: 'completed'; result: unknown }
    | { status: 'failed'; error: string }
    | { status: 'pending'; error: string; runAt?: Date },
): Promise<void> {
  await db
    .update(schedules)
    .set(
      outcome.status === 'completed'
        ? { status: 'completed', result: sql`${JSON.stringify(outcome.result ?? null)}::jsonb`, error: null }
        : outcome,
    )
    .where(eq(schedules.id, scheduleId));
}

/**
 * The uploads waiting behind `row` in its line moved `ms` later: the pending uploads to the same store planned from
 * the same date, time and zone the seller chose (a bulk run's uploads, one store pace apart) at or after its time,
 * so they keep their order and spacing. Answers them as moved.
 */
export function moveLineBehind(db: Db, row: ScheduleRow, ms: number): Promise<ScheduleRow[]> {
  return db
    .update(schedules)
    .set({ runAt: sql`${schedules.runAt} + ${String(ms)}::double precision * interval '1 millisecond'` })
    .where(
      and(
        eq(schedules.workspaceId, row.workspaceId),
        eq(schedules.integrationId, row.integrationId),
        eq(schedules.scheduledDate, row.scheduledDate),
        eq(schedules.scheduledTime, row.scheduledTime),
        eq(schedules.timeZone, row.timeZone),
        eq(schedules.status, 'pending'),
        gte(schedules.runAt, row.runAt),
        ne(schedules.id, row.id),
      ),
    )
    .returning();
}
