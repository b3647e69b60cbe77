import type { JobDefinition } from './define-job';
import type { JobQueue, QueueName } from './job-queue';

/** What starting a job's workers needs: the queue, and the deps its handler declares. */
type WorkerDeps = { jobs: JobQueue };
export type WorkerOptions = { pollingIntervalSeconds?: number };

/** This instance's worker ids per job queue and queue name: a job's workers start once per queue. */
const running = new WeakMap<JobQueue, Map<QueueName, Promise<string[]>>>();

/**
 * Starts this instance's workers of `job` (once; a later call answers the same ids), then the job's `started` step.
 * The one place the server's code starts workers: a listening server starts every job of the registry (app.ts), a
 * job may be started on first send (store pushes under app.inject), and tests start the jobs they need.
 */
export async function startWorker<P extends object, D extends WorkerDeps>(
  deps: D,
  job: JobDefinition<P, NoInfer<D>>,
  options: WorkerOptions = {},
): Promise<string[]> {
  const byName = running.get(deps.jobs) ?? new Map<QueueName, Promise<string[]>>();
  running.set(deps.jobs, byName);
  const known = byName.get(job.name);
  if (known) return known;
  const { count = 1, batchSize } = job.workers;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? job.workers.pollingIntervalSeconds;
  const ids = Promise.all(
    Array.from({ length: count }, () =>
      deps.jobs.work<P>(job.name, { pollingIntervalSeconds, batchSize }, async (jobs) => {
        for (const taken of jobs) await job.handle(deps, { ...taken, data: job.payload.parse(taken.data) });
      }),
    ),
  );
  ids.catch(() => byName.delete(job.name));
  byName.set(job.name, ids);
  await ids;
  await job.started?.(deps);
  return ids;
}

/** Starts this instance's workers of each job in turn (see startWorker). */
export async function startWorkers<D extends WorkerDeps>(
  deps: D,
  jobs: readonly JobDefinition<object, NoInfer<D>>[],
  options: WorkerOptions = {},
): Promise<void> {
  for (const job of jobs) await startWorker(deps, job, options);
}

/** Wakes this instance's workers of `job` now instead of at their next poll (a job was just sent); none: nothing. */
export async function wakeWorkers(jobs: JobQueue, job: { name: QueueName }): Promise<void> {
  const ids = running.get(jobs)?.get(job.name);
  if (!ids) return;
  for (const id of await ids) if (id) await jobs.notify(id);
}
