import { SCHEDULE_PAST_MESSAGE, scheduleIsPast, type TSchedule, type ZCreateSchedule } from '@podforge/contract';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import { integrations, products, publications, schedules } from '../../db/schema';
import { sendJob } from '../../jobs/define-job';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import type { SchedulesDeps } from './schedules.deps';
import { scheduledUploadJob } from './schedules.jobs';

type ScheduleRow = typeof schedules.$inferSelect;
type CreateInput = z.output<typeof ZCreateSchedule>;

/** How far ahead a push may be scheduled. */
const MAX_DAYS_AHEAD = 366;

export function toSchedule(row: ScheduleRow): TSchedule {
  return {
    id: row.id,
    productId: row.productId,
    platform: row.platform,
    scheduledDate: row.scheduledDate,
    scheduledTime: row.scheduledTime,
    timeZone: row.timeZone,
    runAt: row.runAt.toISOString(),
    status: row.status,
    integrationId: row.integrationId,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The instant of a wall-clock date and time in an IANA zone (DST gaps move forward, as a clock does). */
export function scheduledInstant(date: string, time: string, timeZone: string): Date {
  const moment = DateTime.fromISO(`${date}T${time}`, { zone: timeZone });
  if (!moment.isValid) {
    throw badRequest(
      moment.invalidReason === 'unsupported zone'
        ? `timeZone must be an IANA time zone like Europe/Berlin (got "${timeZone}")`
        : `${date} ${time} is not a valid date and time`,
    );
  }
  return moment.toJSDate();
}

async function productForSchedule(deps: SchedulesDeps, workspaceId: string, productId: string) {
  const [row] = await deps.db
    .select({ id: products.id, title: products.title, status: products.status })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.workspaceId, workspaceId)));
  if (!row) throw notFound('Product');
  return row;
}

export async function createSchedule(deps: SchedulesDeps, workspaceId: string, input: CreateInput): Promise<TSchedule> {
  const product = await productForSchedule(deps, workspaceId, input.productId);
  if (product.status === 'processing') throw conflict(`"${product.title}" is being pushed to a store right now`);

  const runAt = scheduledInstant(input.scheduledDate, input.scheduledTime, input.timeZone);
  const now = deps.now();
  if (scheduleIsPast(runAt, now)) throw badRequest(SCHEDULE_PAST_MESSAGE);
  if (runAt.getTime() > now.getTime() + MAX_DAYS_AHEAD * 86_400_000) {
    throw badRequest(`Uploads can be scheduled up to ${MAX_DAYS_AHEAD} days ahead`);
  }

  const integrationId = input.integrationId || 'default';
  if (integrationId !== 'default') {
    const [store] = UUID.test(integrationId)
      ? await deps.db
          .select({ id: integrations.id })
          .from(integrations)
          .where(
            and(
              eq(integrations.id, integrationId),
              eq(integrations.workspaceId, workspaceId),
              eq(integrations.kind, 'store'),
              eq(integrations.platform, input.platform),
            ),
          )
      : [];
    if (!store) throw notFound('Integration');
    // A product live in one store may be scheduled for another (#28), not for one that already has it.
    const [listed] = await deps.db
      .select({ id: publications.id })
      .from(publications)
      .where(
        and(
          eq(publications.productId, product.id),
          eq(publications.integrationId, integrationId),
          eq(publications.status, 'published'),
        ),
      );
    if (listed) {
      throw conflict(`"${product.title}" is already live in that store; send changes there with Update in store`);
    }
  }

  const [row] = await deps.db
    .insert(schedules)
    .values({
      workspaceId,
      productId: product.id,
      platform: input.platform,
      integrationId,
      scheduledDate: input.scheduledDate,
      scheduledTime: input.scheduledTime,
      timeZone: input.timeZone,
      runAt,
      status: 'pending',
    })
    .returning();
  if (!row) throw new Error('schedule insert returned nothing');
  try {
    // The job's id is the schedule's: one schedule can never become two jobs.
    await sendJob(deps.jobs, scheduledUploadJob, { scheduleId: row.id }, { id: row.id, startAfter: runAt });
  } catch (error) {
    // Without its job the row would promise a push that never comes.
    await deps.db.delete(schedules).where(eq(schedules.id, row.id));
    throw error;
  }
  const [withJob] = await deps.db.update(schedules).set({ jobId: row.id }).where(eq(schedules.id, row.id)).returning();
  return toSchedule(withJob ?? row);
}

async function scheduleRow(deps: SchedulesDeps, workspaceId: string, id: string): Promise<ScheduleRow> {
  const [row] = await deps.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.id, id), eq(schedules.workspaceId, workspaceId)));
  if (!row) throw notFound('Schedule');
  return row;
}

/** Spec section 4: only a pending schedule can be cancelled; it then leaves the product's list. */
export async function cancelSchedule(deps: SchedulesDeps, workspaceId: string, id: string): Promise<TSchedule> {
  const row = await scheduleRow(deps, workspaceId, id);
  const [cancelled] = await deps.db
    .update(schedules)
    .set({ status: 'cancelled' })
    .where(and(eq(schedules.id, row.id), eq(schedules.status, 'pending')))
    .returning();
  // Checked by the update itself: a worker may have started the push since the row was read.
  if (!cancelled) throw conflict(`Only a pending upload can be cancelled; this one is ${row.status}`);
  // The worker skips a cancelled row anyway; cancelling the job keeps the queue tidy.
  await deps.jobs.cancel(scheduledUploadJob.name, row.id).catch(() => undefined);
  return toSchedule(cancelled);
}

export async function listProductSchedules(deps: SchedulesDeps, workspaceId: string, productId: string) {
  await productForSchedule(deps, workspaceId, productId);
  const rows = await deps.db
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
  return rows.map(toSchedule);
}

/** The workspace's uploads still to run (pending or running), soonest first: My Products shows each product's next. */
export async function listUpcomingSchedules(deps: SchedulesDeps, workspaceId: string) {
  const rows = await deps.db
    .select()
    .from(schedules)
    .where(and(eq(schedules.workspaceId, workspaceId), inArray(schedules.status, ['pending', 'running'])))
    .orderBy(asc(schedules.runAt))
    .limit(1000);
  return rows.map(toSchedule);
}
