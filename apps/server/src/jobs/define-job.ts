import { createHash } from 'node:crypto';
import type { JobWithMetadata, SendOptions } from 'pg-boss';
import type { z } from 'zod';
import type { JobQueue, QueueName } from './job-queue';

/** pg-boss's retry settings of a job: sent with every job of the queue. */
export type RetryPolicy = Pick<SendOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'>;

/**
 * One job, whole: its queue, what it carries, how it is retried, and what a worker does with it (with the deps its
 * module declares). The server's jobs are listed in `registry.ts`; `workers.ts` starts them.
 */
export type JobDefinition<P extends object, D> = {
  /** The pg-boss queue (QUEUES): part of the stored jobs, so it never changes. */
  name: QueueName;
  /** What a job carries, checked when a worker takes it. */
  payload: z.ZodType<P>;
  retry: RetryPolicy;
  /** This instance's workers of the queue: how many (1 unless said), how often each polls, how many jobs it takes. */
  workers: { count?: number; pollingIntervalSeconds: number; batchSize: number };
  handle(deps: D, job: JobWithMetadata<P>): Promise<void>;
  /** Runs once this instance's workers are started: e.g. queues the current period of a recurring chain. */
  started?(deps: D): Promise<void>;
};

export function defineJob<P extends object, D>(definition: JobDefinition<P, D>): JobDefinition<P, D> {
  return definition;
}

/** When a job may run and its id (sending the same id again adds nothing; pg-boss answers null). */
export type SendJobOptions = { id?: string; startAfter?: Date };

/** Sends a job with its definition's retry policy. */
export function sendJob<P extends object>(
  jobs: JobQueue,
  job: JobDefinition<P, never>,
  payload: P,
  options: SendJobOptions = {},
): Promise<string | null> {
  return jobs.send(job.name, payload, { ...job.retry, ...options });
}

/** A stable job id (a UUID, as pg-boss wants) for a key: sending the same step twice adds one job. */
export const jobIdOf = (key: string) => {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
