import { createHash } from 'node:crypto';
import type { JobWithMetadata } from 'pg-boss';
import type { AppDeps } from '../../deps';
import { QUEUES, type QueueName } from '../../jobs/job-queue';
import {
  applyPrinterEvent,
  cancelAtPrinter,
  confirmAtPrinter,
  failOrder,
  failureText,
  fulfilInStore,
  isFinalFailure,
  noteStoreFailure,
  type PrinterEvent,
  submitToPrinter,
} from './fulfilment';

/**
 * Every order step is a pg-boss job: it survives a restart, runs on one instance, and is retried with backoff when
 * the failure may pass (the printer unreachable, a 5xx). A refusal the seller must act on fails the order at once
 * with the reason; so does the last retry.
 */

const RETRY = { retryLimit: 4, retryDelay: 2, retryBackoff: true } as const;

/** A stable job id for a key: sending the same step twice adds one job. */
export const jobId = (key: string) => {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

type OrderJob = { orderId: string; retry?: boolean; attempt?: string };

export const enqueue = {
  submit: (deps: AppDeps, orderId: string, attempt = 'first') =>
    deps.jobs.send(QUEUES.orderSubmit, { orderId }, { ...RETRY, id: jobId(`submit:${orderId}:${attempt}`) }),
  confirm: (deps: AppDeps, orderId: string, options: { at?: Date | null; retry?: boolean; attempt?: string } = {}) =>
    deps.jobs.send(
      QUEUES.orderConfirm,
      { orderId, retry: options.retry === true },
      {
        ...RETRY,
        id: jobId(`confirm:${orderId}:${options.attempt ?? 'first'}`),
        ...(options.at ? { startAfter: options.at } : {}),
      },
    ),
  cancel: (deps: AppDeps, orderId: string, why: string) =>
    deps.jobs.send(QUEUES.orderCancel, { orderId, why }, { ...RETRY, id: jobId(`cancel:${orderId}`) }),
  storeFulfil: (deps: AppDeps, orderId: string) =>
    deps.jobs.send(QUEUES.storeFulfil, { orderId }, { ...RETRY, id: jobId(`store-fulfil:${orderId}`) }),
  printerEvent: (deps: AppDeps, data: { workspaceId: string; event: PrinterEvent }, eventKey: string) =>
    deps.jobs.send(QUEUES.printerEvent, data, { ...RETRY, id: jobId(`printer-event:${eventKey}`) }),
  sandboxTick: (deps: AppDeps, at: Date) =>
    deps.jobs.send(QUEUES.printfulSandboxTick, {}, { startAfter: at, retryLimit: 2, retryDelay: 1 }),
};

/** Runs the steps of an order; the last failure (or a final one) fails the order with the reason. */
async function orderStep<T extends OrderJob>(
  deps: AppDeps,
  job: JobWithMetadata<T>,
  step: () => Promise<void>,
  onGiveUp: (reason: string) => Promise<void> = (reason) => failOrder(deps, job.data.orderId, reason),
) {
  try {
    await step();
  } catch (error) {
    if (isFinalFailure(error) || job.retryCount >= job.retryLimit) {
      await onGiveUp(failureText(error));
      return;
    }
    throw error;
  }
}

export type OrderWorkerOptions = { pollingIntervalSeconds?: number };

export async function startOrderWorkers(deps: AppDeps, options: OrderWorkerOptions = {}) {
  const opts = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, batchSize: 1 };
  const work = <T extends object>(name: QueueName, fn: (job: JobWithMetadata<T>) => Promise<void>) =>
    deps.jobs.work<T>(name, opts, async (jobs) => {
      for (const job of jobs) await fn(job);
    });

  await work<OrderJob>(QUEUES.orderSubmit, (job) =>
    orderStep(deps, job, async () => {
      const next = await submitToPrinter(deps, job.data.orderId);
      if (next?.confirmNow) await confirmAtPrinter(deps, job.data.orderId);
      else if (next?.confirmAt) await enqueue.confirm(deps, job.data.orderId, { at: next.confirmAt });
    }),
  );
  await work<OrderJob>(QUEUES.orderConfirm, (job) =>
    orderStep(deps, job, () => confirmAtPrinter(deps, job.data.orderId, { retry: job.data.retry === true })),
  );
  await work<OrderJob & { why: string }>(QUEUES.orderCancel, (job) =>
    orderStep(deps, job, () => cancelAtPrinter(deps, job.data.orderId, job.data.why)),
  );
  await work<OrderJob>(QUEUES.storeFulfil, (job) =>
    orderStep(
      deps,
      job,
      () => fulfilInStore(deps, job.data.orderId),
      (reason) => noteStoreFailure(deps, job.data.orderId, reason),
    ),
  );
  await work<{ workspaceId: string; event: PrinterEvent }>(QUEUES.printerEvent, async (job) => {
    const { fulfilInStore: orderId } = await applyPrinterEvent(deps, job.data.workspaceId, job.data.event);
    if (orderId) await enqueue.storeFulfil(deps, orderId);
  });
  await work<object>(QUEUES.printfulSandboxTick, async () => {
    await deps.printfulSandbox.tick();
  });
}
