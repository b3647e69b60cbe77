import { ErrorCode, type TStorePlatform } from '@podforge/contract';
import type { JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { AppError } from '../../lib/errors';
import { pushProduct } from '../products/products.service';
import { settledPush } from '../products/store-push';
import type { SchedulesDeps } from './schedules.deps';
import { claimScheduleRow, finishScheduleRow } from './schedules.repository';

/** What the queue carries: only the id; the row is the truth (it may have been cancelled meanwhile). */
const ZScheduledUploadJob = z.object({ scheduleId: z.string() });
type ScheduledUploadJob = z.infer<typeof ZScheduledUploadJob>;

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
  const row = await claimSchedule(deps, job.data.scheduleId, job.retryCount);
  if (!row) return; // cancelled, or already done
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
      // The store's day budget is spent (a platform with a daily quota): the upload moves to when it is back, and says so.
      const at = new Date(deps.now().getTime() + wait * 1000);
      await sendJob(deps.jobs, scheduledUploadJob, { scheduleId: row.id }, { startAfter: at });
      await finishSchedule(deps, row.id, {
        status: 'pending',
        error: `${message.replace(/\.?$/, '.')} The upload moved to ${at.toISOString()}.`,
      });
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
export function claimSchedule(deps: SchedulesDeps, scheduleId: string, retryCount: number) {
  return claimScheduleRow(deps.db, scheduleId, retryCount > 0);
}

export function finishSchedule(
  deps: SchedulesDeps,
  scheduleId: string,
  outcome: { status: 'completed'; result: unknown } | { status: 'failed' | 'pending'; error: string },
) {
  return finishScheduleRow(deps.db, scheduleId, outcome);
}

export type StorePush = (schedule: {
  workspaceId: string;
  productId: string;
  platform: TStorePlatform;
  integrationId: string;
}) => Promise<unknown>;
