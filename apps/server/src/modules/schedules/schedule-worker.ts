import type { TStorePlatform } from '@podforge/contract';
import type { AppDeps } from '../../deps';
import { QUEUES } from '../../jobs/job-queue';
import { AppError } from '../../lib/errors';
import { pushProduct } from '../products/products.service';
import { claimSchedule, finishSchedule, type ScheduledUploadJob, type StorePush } from './schedules.service';

/** The real push: the same code path as 'Upload Now'. */
export const pushToStore =
  (deps: AppDeps): StorePush =>
  (s) =>
    pushProduct(deps, s.workspaceId, s.platform, s.productId, s.integrationId);

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
          const retry = !isFinal(error) && job.retryCount < job.retryLimit;
          await finishSchedule(deps, row.id, { status: retry ? 'pending' : 'failed', error: message });
          if (retry) throw error; // pg-boss schedules the next attempt with backoff
        }
      }
    },
  );
}
