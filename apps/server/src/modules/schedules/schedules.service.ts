import { SCHEDULE_PAST_MESSAGE, scheduleIsPast, type TSchedule, type ZCreateSchedule } from '@podforge/contract';
import { DateTime } from 'luxon';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { findProduct, publicationsOf } from '../products/products.repository';
import { findStoreConnection } from '../stores/store-connections.repository';
import type { SchedulesDeps } from './schedules.deps';
import { queueScheduledUpload, scheduledUploadJob } from './schedules.jobs';
import {
  cancelPendingSchedule,
  deleteSchedule,
  findSchedule,
  insertSchedule,
  productSchedules,
  type ScheduleRow,
  setScheduleJob,
  upcomingSchedules,
} from './schedules.repository';

type CreateInput = z.output<typeof ZCreateSchedule>;

/** How far ahead a push may be scheduled. */
export const MAX_DAYS_AHEAD = 366;

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

const productForSchedule = (deps: SchedulesDeps, workspaceId: string, productId: string) =>
  findProduct(deps.db, workspaceId, productId);

/**
 * A scheduled upload of a product to a store, at the seller's date and time; `plannedAfterSeconds` (a bulk run's
 * uploads, each planned at its store's pace from the seller's time) runs it that much later: the row keeps the
 * seller's date and time and its own `runAt`, which the job starts at and the schedules list shows.
 */
export async function createSchedule(
  deps: SchedulesDeps,
  workspaceId: string,
  input: CreateInput,
  plannedAfterSeconds = 0,
): Promise<TSchedule> {
  const product = await productForSchedule(deps, workspaceId, input.productId);
  if (product.status === 'processing') throw conflict(`"${product.title}" is being pushed to a store right now`);

  const chosen = scheduledInstant(input.scheduledDate, input.scheduledTime, input.timeZone);
  const now = deps.now();
  if (scheduleIsPast(chosen, now)) throw badRequest(SCHEDULE_PAST_MESSAGE);
  if (chosen.getTime() > now.getTime() + MAX_DAYS_AHEAD * 86_400_000) {
    throw badRequest(`Uploads can be scheduled up to ${MAX_DAYS_AHEAD} days ahead`);
  }
  const runAt = new Date(chosen.getTime() + Math.max(0, plannedAfterSeconds) * 1000);

  const integrationId = input.integrationId || 'default';
  if (integrationId !== 'default') {
    // The workspace's store of the platform asked for, or 404 (the one lookup of a store).
    const store = await findStoreConnection(deps.db, workspaceId, integrationId, input.platform);
    if (store.kind !== 'store') throw notFound('Integration');
    // A product live in one store may be scheduled for another (#28), not for one that already has it.
    const listed = ((await publicationsOf(deps.db, [product.id])).get(product.id) ?? []).some(
      (p) => p.integrationId === store.id && p.status === 'published',
    );
    if (listed) {
      throw conflict(`"${product.title}" is already live in that store; send changes there with Update in store`);
    }
  }

  const row = await insertSchedule(deps.db, {
    workspaceId,
    productId: product.id,
    platform: input.platform,
    integrationId,
    scheduledDate: input.scheduledDate,
    scheduledTime: input.scheduledTime,
    timeZone: input.timeZone,
    runAt,
    status: 'pending',
  });
  try {
    // The job's id is the schedule's: one schedule can never become two jobs.
    await queueScheduledUpload(deps, row, row.id);
  } catch (error) {
    // Without its job the row would promise a push that never comes.
    await deleteSchedule(deps.db, row.id);
    throw error;
  }
  const withJob = await setScheduleJob(deps.db, row.id, row.id);
  return toSchedule(withJob ?? row);
}

const scheduleRow = (deps: SchedulesDeps, workspaceId: string, id: string): Promise<ScheduleRow> =>
  findSchedule(deps.db, workspaceId, id);

/** Spec section 4: only a pending schedule can be cancelled; it then leaves the product's list. */
export async function cancelSchedule(deps: SchedulesDeps, workspaceId: string, id: string): Promise<TSchedule> {
  const row = await scheduleRow(deps, workspaceId, id);
  const cancelled = await cancelPendingSchedule(deps.db, row.id);
  // Checked by the update itself: a worker may have started the push since the row was read.
  if (!cancelled) throw conflict(`Only a pending upload can be cancelled; this one is ${row.status}`);
  // The worker skips a cancelled row anyway; cancelling the job keeps the queue tidy.
  await deps.jobs.cancel(scheduledUploadJob.name, row.id).catch(() => undefined);
  return toSchedule(cancelled);
}

export async function listProductSchedules(deps: SchedulesDeps, workspaceId: string, productId: string) {
  await productForSchedule(deps, workspaceId, productId);
  return (await productSchedules(deps.db, workspaceId, productId)).map(toSchedule);
}

/** The workspace's uploads still to run (pending or running), soonest first: My Products shows each product's next. */
export async function listUpcomingSchedules(deps: SchedulesDeps, workspaceId: string) {
  return (await upcomingSchedules(deps.db, workspaceId, 1000)).map(toSchedule);
}
