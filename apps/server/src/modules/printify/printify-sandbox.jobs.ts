import { z } from 'zod';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import type { CoreDeps } from '../../lib/core-deps';
import type { PrintifySandbox } from './printify-sandbox';

type SandboxDeps = Pick<CoreDeps, 'jobs'> & { printifySandbox: PrintifySandbox };

/** The built-in Printify sandbox's due steps (production, shipping, delivery), asked for at their instant. */
export const printifySandboxTickJob = defineJob({
  name: QUEUES.printifySandboxTick,
  payload: z.object({}),
  retry: { retryLimit: 2, retryDelay: 1 },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: SandboxDeps) => {
    await deps.printifySandbox.tick();
  },
});

export const printifySandboxTick = (deps: SandboxDeps, at: Date) =>
  sendJob(deps.jobs, printifySandboxTickJob, {}, { startAfter: at });
