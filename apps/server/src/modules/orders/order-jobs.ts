import type { JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import type { PrinterEvent } from '../printers/fulfilment-provider';
import {
  applyPrinterEvent,
  cancelAtPrinter,
  confirmAtPrinter,
  failOrder,
  failureText,
  fulfilInStore,
  isFinalFailure,
  noteStoreFailure,
  submitToPrinter,
} from './fulfilment';
import type { OrdersDeps } from './orders.deps';

/**
 * Every order step is a pg-boss job: it survives a restart, runs on one instance, and is retried with backoff when
 * the failure may pass (the printer unreachable, a 5xx). A refusal the seller must act on fails the order at once
 * with the reason; so does the last retry.
 */

const RETRY = { retryLimit: 4, retryDelay: 2, retryBackoff: true } as const;
/** How this instance works each order queue. */
const WORKERS = { pollingIntervalSeconds: 1, batchSize: 1 };

/** A stable job id for a key (jobs/define-job.ts). */
export const jobId = jobIdOf;

const ZOrderJob = z.object({ orderId: z.string(), retry: z.boolean().optional(), attempt: z.string().optional() });
type OrderJob = z.infer<typeof ZOrderJob>;

/** Runs the steps of an order; the last failure (or a final one) fails the order with the reason. */
async function orderStep<T extends OrderJob>(
  deps: OrdersDeps,
  job: JobWithMetadata<T>,
  step: () => Promise<void>,
  onGiveUp: (reason: string) => Promise<void> = (reason) => failOrder(deps, job.data.orderId, reason),
) {
  try {
    await step();
  } catch (error) {
    if (isFinalFailure(deps, error) || job.retryCount >= job.retryLimit) {
      await onGiveUp(failureText(deps, error));
      return;
    }
    throw error;
  }
}

export const orderSubmitJob = defineJob({
  name: QUEUES.orderSubmit,
  payload: ZOrderJob,
  retry: RETRY,
  workers: WORKERS,
  handle: (deps: OrdersDeps, job) =>
    orderStep(deps, job, async () => {
      const next = await submitToPrinter(deps, job.data.orderId);
      if (next?.confirmNow) await confirmAtPrinter(deps, job.data.orderId);
      else if (next?.confirmAt) await enqueue.confirm(deps, job.data.orderId, { at: next.confirmAt });
    }),
});

export const orderConfirmJob = defineJob({
  name: QUEUES.orderConfirm,
  payload: ZOrderJob,
  retry: RETRY,
  workers: WORKERS,
  handle: (deps: OrdersDeps, job) =>
    orderStep(deps, job, () => confirmAtPrinter(deps, job.data.orderId, { retry: job.data.retry === true })),
});

export const orderCancelJob = defineJob({
  name: QUEUES.orderCancel,
  payload: ZOrderJob.extend({ why: z.string() }),
  retry: RETRY,
  workers: WORKERS,
  handle: (deps: OrdersDeps, job) => orderStep(deps, job, () => cancelAtPrinter(deps, job.data.orderId, job.data.why)),
});

export const storeFulfilJob = defineJob({
  name: QUEUES.storeFulfil,
  payload: ZOrderJob,
  retry: RETRY,
  workers: WORKERS,
  handle: (deps: OrdersDeps, job) =>
    orderStep(
      deps,
      job,
      () => fulfilInStore(deps, job.data.orderId),
      (reason) => noteStoreFailure(deps, job.data.orderId, reason),
    ),
});

export const printerEventJob = defineJob({
  name: QUEUES.printerEvent,
  payload: z.object({
    workspaceId: z.string(),
    event: z.custom<PrinterEvent>((value) => typeof value === 'object' && value !== null),
  }),
  retry: RETRY,
  workers: WORKERS,
  handle: async (deps: OrdersDeps, job) => {
    const event = queuedPrinterEvent(deps, job.data.event);
    if (!event) return;
    const { fulfilInStore: orderId, shipments } = await applyPrinterEvent(deps, job.data.workspaceId, event);
    if (orderId) await enqueue.storeFulfil(deps, orderId, shipments);
  },
});

/**
 * The event as the job carries it. Jobs queued before the printers' port carried the printer's own webhook body
 * (Printful's); a deploy must not drop them, so such a body is read by the adapter that recognises it.
 */
export function queuedPrinterEvent(deps: OrdersDeps, event: PrinterEvent): PrinterEvent | null {
  if ('order' in event) return event;
  for (const printer of deps.printers.all()) {
    const read = printer.readWebhook(event);
    if (read) return read.event;
  }
  return null;
}

/** The order steps' jobs, in the order their workers start. */
export const ORDER_JOBS = [orderSubmitJob, orderConfirmJob, orderCancelJob, storeFulfilJob, printerEventJob] as const;

export const enqueue = {
  submit: (deps: OrdersDeps, orderId: string, attempt = 'first') =>
    sendJob(deps.jobs, orderSubmitJob, { orderId }, { id: jobId(`submit:${orderId}:${attempt}`) }),
  confirm: (deps: OrdersDeps, orderId: string, options: { at?: Date | null; retry?: boolean; attempt?: string } = {}) =>
    sendJob(
      deps.jobs,
      orderConfirmJob,
      { orderId, retry: options.retry === true },
      {
        id: jobId(`confirm:${orderId}:${options.attempt ?? 'first'}`),
        ...(options.at ? { startAfter: options.at } : {}),
      },
    ),
  cancel: (deps: OrdersDeps, orderId: string, why: string) =>
    sendJob(deps.jobs, orderCancelJob, { orderId, why }, { id: jobId(`cancel:${orderId}`) }),
  /** The order's first shipments to the store; `shipments` (their ids) names a later parcel's, a job of its own. */
  storeFulfil: (deps: OrdersDeps, orderId: string, shipments?: string) =>
    sendJob(
      deps.jobs,
      storeFulfilJob,
      { orderId },
      { id: jobId(shipments ? `store-fulfil:${orderId}:${shipments}` : `store-fulfil:${orderId}`) },
    ),
  printerEvent: (deps: OrdersDeps, data: { workspaceId: string; event: PrinterEvent }, eventKey: string) =>
    sendJob(deps.jobs, printerEventJob, data, { id: jobId(`printer-event:${eventKey}`) }),
};
