import { ErrorCode, type TStorePlatform } from '@podforge/contract';
import type { JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { AppError } from '../../lib/errors';
import { pushProduct } from '../products/products.service';
import { settledPush } from '../products/store-push';
import type { SchedulesDeps } from './schedules.deps';
import { claimScheduleRow, finishScheduleRow, moveLineBehind, scheduleById } from './schedules.repository';

/**
 * What the queue carries: the id, and the time the job was queued for; the row is the truth (it may have been
 * cancelled meanwhile, or moved to a later time, which a job of its own runs it at). A job queued without a time
 * (before times were carried) runs its row whenever it comes.
 */
const ZScheduledUploadJob = z.object({ scheduleId: z.string(), runAt: z.string().optional() });
type ScheduledUploadJob = z.infer<typeof ZScheduledUploadJob>;

/**
 * Queues the job of a schedule at its time, once: under `id` (a new schedule's first job is its own id), else an id
 * of the schedule and that time, so queuing a moved upload again adds nothing.
 */
export function queueScheduledUpload(deps: SchedulesDeps, row: { id: string; runAt: Date }, id?: string) {
  const runAt = row.runAt.toISOString();
  return sendJob(
    deps.jobs,
    scheduledUploadJob,
    { scheduleId: row.id, runAt },
    { id: id ?? jobIdOf(`schedule:${row.id}:${runAt}`), startAfter: row.runAt },
  );
}

/** A scheduled push may take its time: a push job still running after the upload call's wait is followed. */
const SCHEDULED_PUSH_WAIT_MS = 10 * 60_000;

/**
 * The real push: the same code path as 'Upload Now'. A scheduled upload moves itself when the store's limit is spent
 * for long (the push fails with `retryAfterSeconds`, see below); other callers (bulk) let the push job defer itself
 * (`deferOnLimit`) and hear until when as the same 503.
 */
export const pushToStore =
  (deps: SchedulesDeps, options: { deferOnLimit?: boolean } = {}): StorePush =>
  async (s) => {
    const failOnLimit = !options.deferOnLimit;
    const result = await pushProduct(deps, s.workspaceId, s.platform, s.productId, s.integrationId, { failOnLimit });
    if (result.success) return result;
    return settledPush(
      deps,
      { workspaceId: s.workspaceId, productId: s.productId, integrationId: result.integrationId },
      SCHEDULED_PUSH_WAIT_MS,
    );
  };

/** Seconds until a store's spent budget (a day's requests) is back, when that is why the push failed. */
const budgetWait = (error: unknown): number | null => {
  if (!(error instanceof AppError) || error.code !== ErrorCode.RateLimited) return null;
  const seconds = Number(error.details.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
};

/** A refusal the seller must act on (not connected, already live, not available) is final; anything else may pass. */
const isFinal = (error: unknown) => error instanceof AppError && (error.statusCode < 500 || error.statusCode === 501);

/**
 * A due scheduled upload, run on one instance: pg-boss gives each job to one worker across all instances; the claim
 * on the row (pending -> running) makes a second delivery a no-op all the same. `push` stands in for the store push
 * in tests (scheduledUploadJobWith).
 */
async function runScheduledUpload(deps: SchedulesDeps, job: JobWithMetadata<ScheduledUploadJob>, push: StorePush) {
  const { scheduleId, runAt } = job.data;
  const row = await claimSchedule(deps, scheduleId, job.retryCount, runAt ? new Date(runAt) : null);
  if (!row) {
    // Cancelled or done: nothing to do. Moved to a later time: its job runs it then (queued again here, adding
    // nothing when it is, should the process that moved it have stopped before queuing it).
    const moved = await scheduleById(deps.db, scheduleId);
    if (moved?.status === 'pending' && runAt && moved.runAt.getTime() !== Date.parse(runAt)) {
      await queueScheduledUpload(deps, moved);
    }
    return;
  }
  try {
    const result = await push({
      workspaceId: row.workspaceId,
      productId: row.productId,
      platform: row.platform as TStorePlatform,
      integrationId: row.integrationId,
    });
    await finishSchedule(deps, row.id, { status: 'completed', result });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const wait = budgetWait(error);
    if (wait !== null) {
      // The store's day budget is spent (a platform with a daily quota): the upload moves to when it is back, and says
      // so; the uploads waiting behind it in its line (a bulk run's, a store pace apart) move as far, keeping their
      // spacing, instead of each meeting the spent budget and all moving to that same instant.
      const at = new Date(deps.now().getTime() + wait * 1000);
      const shift = at.getTime() - row.runAt.getTime();
      const reason = message.replace(/\.?$/, '.');
      const moved = shift > 0 ? await moveLineBehind(deps.db, row, shift) : [];
      // Each row says so before its job is queued (a job of a row still running would find nothing to claim); a
      // process stopped in between is repaired by the job it held or the row's old one (see above).
      for (const upload of [{ ...row, runAt: at }, ...moved]) {
        await finishSchedule(deps, upload.id, {
          status: 'pending',
          error: `${reason} The upload moved to ${upload.runAt.toISOString()}.`,
          runAt: upload.runAt,
        });
        await queueScheduledUpload(deps, upload);
      }
      return;
    }
    const retry = !isFinal(error) && job.retryCount < job.retryLimit;
    await finishSchedule(deps, row.id, { status: retry ? 'pending' : 'failed', error: message });
    if (retry) throw error; // pg-boss schedules the next attempt with backoff
  }
}

/** The scheduled upload job with `push` in place of the real store push (tests). */
export const scheduledUploadJobWith = (push?: StorePush) =>
  defineJob({
    name: QUEUES.scheduledUpload,
    payload: ZScheduledUploadJob,
    // pg-boss retries a push that failed for a passing reason (the store or network), with backoff.
    retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
    workers: { pollingIntervalSeconds: 2, batchSize: 1 },
    handle: (deps: SchedulesDeps, job) => runScheduledUpload(deps, job, push ?? pushToStore(deps)),
  });

export const scheduledUploadJob = scheduledUploadJobWith();

/**
 * Marks the schedule running if it is still due. A retry attempt may also take a row left 'running' by an attempt
 * whose process died: the push itself is idempotent (one publication per product and store).
 */
export function claimSchedule(deps: SchedulesDeps, scheduleId: string, retryCount: number, runAt: Date | null) {
  return claimScheduleRow(deps.db, scheduleId, retryCount > 0, runAt);
}

export function finishSchedule(
  deps: SchedulesDeps,
  scheduleId: string,
  outcome: Parameters<typeof finishScheduleRow>[2],
) {
  return finishScheduleRow(deps.db, scheduleId, outcome);
}

export type StorePush = (schedule: {
  workspaceId: string;
  productId: string;
  platform: TStorePlatform;
  integrationId: string;
}) => Promise<unknown>;
