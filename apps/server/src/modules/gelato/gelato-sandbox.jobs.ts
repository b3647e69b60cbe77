import { z } from 'zod';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import type { CoreDeps } from '../../lib/core-deps';
import type { GelatoSandbox } from './gelato-sandbox';

type SandboxDeps = Pick<CoreDeps, 'jobs'> & { gelatoSandbox: GelatoSandbox };

/** The built-in Gelato sandbox's due steps (file check, production, shipping, delivery), asked for at their instant. */
export const gelatoSandboxTickJob = defineJob({
  name: QUEUES.gelatoSandboxTick,
  payload: z.object({}),
  retry: { retryLimit: 2, retryDelay: 1 },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: SandboxDeps) => {
    await deps.gelatoSandbox.tick();
  },
});

export const gelatoSandboxTick = (deps: SandboxDeps, at: Date) =>
  sendJob(deps.jobs, gelatoSandboxTickJob, {}, { startAfter: at });
