import { z } from 'zod';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import type { CoreDeps } from '../../lib/core-deps';
import type { PrintfulSandbox } from './printful-sandbox';

type SandboxDeps = Pick<CoreDeps, 'jobs'> & { printfulSandbox: PrintfulSandbox };

/** How this instance works the queue. */
const WORKERS = { pollingIntervalSeconds: 1, batchSize: 1 };

/** The built-in sandbox printer's due steps (production, shipping, delivery), asked for at their instant. */
export const printfulSandboxTickJob = defineJob({
  name: QUEUES.printfulSandboxTick,
  payload: z.object({}),
  retry: { retryLimit: 2, retryDelay: 1 },
  workers: WORKERS,
  handle: async (deps: SandboxDeps) => {
    await deps.printfulSandbox.tick();
  },
});

export const sandboxTick = (deps: SandboxDeps, at: Date) =>
  sendJob(deps.jobs, printfulSandboxTickJob, {}, { startAfter: at });
