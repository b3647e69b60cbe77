import { ErrorCode, type TStorePlatform } from '@podforge/contract';
import type { AppDeps } from '../../deps';
import { QUEUES } from '../../jobs/job-queue';
import { AppError } from '../../lib/errors';
import { pushProduct } from '../products/products.service';
import { settledPush } from '../products/store-push';
import {
  claimSchedule,
  finishSchedule,
  SCHEDULE_RETRY,
  type ScheduledUploadJob,
  type StorePush,
} from './schedules.service';

/** A scheduled push may take its time: a push job still running after the upload call's wait is followed. */
const SCHEDULED_PUSH_WAIT_MS = 10 * 60_000;

/** The real push: the same code path as 'Upload Now'. */
export const pushToStore =
  (deps: AppDeps): StorePush =>
  async (s) => {
    const result = await pushProduct(deps, s.workspaceId, s.platform, s.productId, s.integrationId);
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

export type ScheduleWorkerOptions = {
  push?: StorePush;
  /** How often an idle worker looks for due jobs. */
  pollingIntervalSeconds?: number;
};

/**
 * Runs due scheduled uploads on this instance. pg-boss gives each job to one worker across all instances; the claim
 * on the row (pending -> running) makes a second delivery a no-op all the same.
 */
export async function startScheduleWorker(deps: AppDeps, options: ScheduleWorkerOptions = {}) {
  const push = options.push ?? pushToStore(deps);
  await deps.jobs.work<ScheduledUploadJob>(
    QUEUES.scheduledUpload,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
    async (jobs) => {
      for (const job of jobs) {
        const row = await claimSchedule(deps, job.data.scheduleId, job.retryCount);
        if (!row) continue; // cancelled, or already done
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
            // The store's day budget is spent (Etsy): the upload moves to when it is back, and says so.
            const at = new Date(deps.now().getTime() + wait * 1000);
            await deps.jobs.send(QUEUES.scheduledUpload, { scheduleId: row.id }, { startAfter: at, ...SCHEDULE_RETRY });
            await finishSchedule(deps, row.id, {
              status: 'pending',
              error: `${message.replace(/\.?$/, '.')} The upload moved to ${at.toISOString()}.`,
            });
            continue;
          }
          const retry = !isFinal(error) && job.retryCount < job.retryLimit;
          await finishSchedule(deps, row.id, { status: retry ? 'pending' : 'failed', error: message });
          if (retry) throw error; // pg-boss schedules the next attempt with backoff
        }
      }
    },
  );
}
