import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  platformLabel,
  type TErrorCode,
  type TPushState,
  type TStorePlatform,
  type TStoreUploadResult,
  ZProductStatus,
} from '@podforge/contract';
import type { JobWithMetadata } from 'pg-boss';
import { z } from 'zod';
import type { integrations, publications } from '../../db/schema';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { startWorker, wakeWorkers } from '../../jobs/workers';
import { AppError, conflict } from '../../lib/errors';
import { deletePrintFiles } from '../print-files/print-files.service';
import { storeConnection } from '../stores/store-connections.repository';
import type { StorePlatform } from '../stores/store-platform';
import { type PublishContext, refusalOf } from '../stores/store-publisher';
import { claimForPush, type PushableStatus, settlePush } from './product-status';
import type { ProductsDeps } from './products.deps';
import {
  deleteProductRow,
  findProduct,
  findPublication,
  lockProduct,
  otherActivePublications,
  type ProductRow,
  queuePublication,
  settlePublication,
  updatePublicationOfJob,
} from './products.repository';
import { loadPushProduct } from './push-product';

/** A publication row: one product in one store. */
type PushRow = typeof publications.$inferSelect;

/**
 * Every store push, whatever the platform, is one pg-boss job per product and store (`store-push`): the request claims
 * the product (processing) and the publication row (processing, with the job's id), sends the job, and waits for the
 * row to settle for a while; the answer is then what the push did, or 'running' (the browser polls `GET
 * /api/products/:id/pushes`). The job runs on any instance and survives a restart: a graceful stop hands a running job
 * back (failed, so retried), and a job whose process died expires and runs again. A second run finishes the same
 * remote product: the adapter is given the remote id the first run recorded before anything else was sent
 * (`remoteProductId`, `saveRemoteId`) and finds a lost create itself (an upsert by handle, a look-up by SKU). A job
 * whose row has moved on (another job id, or no longer processing) does nothing.
 *
 * The job does the store's side (`pushRemote`, through the platform's StorePlatform adapter) and this module the
 * bookkeeping all three share: progress, the
 * remote id, the outcome (with the error, its status, code and details as the seller's call answers them) and the
 * product's status.
 */

const ZStorePushJob = z.object({
  workspaceId: z.string(),
  productId: z.string(),
  integrationId: z.string(),
  /**
   * 'update' (a live product's listing brought up to date) keeps the listing published when it fails; 'remove'
   * archives or deletes the listing of a product being deleted, and the last removal deletes the product.
   */
  mode: z.enum(['create', 'update', 'remove']),
  /** The product's status before the push, which it returns to when the push fails. */
  previous: ZProductStatus.exclude(['processing']),
  /** For 'remove': what happens to the store's listing. */
  removal: z.enum(['archive', 'delete']).optional(),
  /**
   * For 'remove': the product stays (taken out of this one store, `remove-from-store`); without it the last removal
   * deletes the product (a product deleted with its listings).
   */
  keepProduct: z.boolean().optional(),
  /**
   * A store's long rate limit (a spent day's budget) fails the push instead of deferring it: for a caller that moves
   * itself by the failure's `retryAfterSeconds` (a scheduled upload).
   */
  failOnLimit: z.boolean().optional(),
});
export type StorePushJob = z.infer<typeof ZStorePushJob>;

type StoreRow = typeof integrations.$inferSelect;
type JobKey = Pick<StorePushJob, 'workspaceId' | 'productId' | 'integrationId'>;

export const storePushJob = defineJob({
  name: QUEUES.storePush,
  payload: ZStorePushJob,
  /** An interrupted push (its process ended) is run again after this long, at most twice. */
  retry: { retryLimit: 2, retryDelay: 5, expireInSeconds: 600 },
  /** Pushes one instance runs at once; they share each shop's cost bucket through the client's pacing. */
  workers: { count: 6, pollingIntervalSeconds: 1, batchSize: 1 },
  handle: (deps: ProductsDeps, job) => runPush(deps, job),
});

async function publicationOf(deps: ProductsDeps, workspaceId: string, productId: string, integrationId: string) {
  return findPublication(deps.db, { workspaceId, productId, integrationId });
}

/** Marks the publication processing under a new job id and sends the job; answers the id. */
async function queuePush(deps: ProductsDeps, job: StorePushJob): Promise<string> {
  const jobId = randomUUID();
  const now = deps.now();
  const queued = { status: 'processing' as const, jobId, progress: 'Queued', updatedAt: now };
  const { workspaceId, productId, integrationId } = job;
  await queuePublication(deps.db, { workspaceId, productId, integrationId }, queued);
  try {
    // A server that does not listen (app.inject) starts this instance's push workers on its first push.
    if (deps.config.jobsWorker) await startWorker(deps, storePushJob);
    await sendJob(deps.jobs, storePushJob, job, { id: jobId });
    if (deps.config.jobsWorker) await wakeWorkers(deps.jobs, storePushJob);
  } catch (error) {
    await settle(deps, job, jobId, {
      ok: false,
      failure: { message: 'The push could not be queued; please try again', status: 503, code: ErrorCode.Upstream },
    });
    throw error;
  }
  return jobId;
}

/**
 * Claims the product and its publication for a push to `store` and sends the job; answers the job's id. A push of
 * this product to this store that is already running is joined (its id answered), never doubled.
 */
export async function startPush(
  deps: ProductsDeps,
  workspaceId: string,
  productId: string,
  store: StoreRow,
  mode: 'create' | 'update',
  previous: PushableStatus,
  staleOk = false,
  failOnLimit = false,
): Promise<string> {
  const row = await findProduct(deps.db, workspaceId, productId);
  if (row.status === 'processing') {
    const running = await publicationOf(deps, workspaceId, productId, store.id);
    if (running?.status === 'processing' && running.jobId && !staleOk) return running.jobId;
    if (!staleOk) throw conflict(`"${row.title}" is being pushed to a store already`);
  }
  if (!(await claimForPush(deps.db, row, deps.now()))) {
    // Another request claimed it a moment ago: join its push when it is this store's.
    const running = await publicationOf(deps, workspaceId, productId, store.id);
    if (running?.status === 'processing' && running.jobId) return running.jobId;
    throw conflict(`"${row.title}" is being pushed to a store already`);
  }
  return queuePush(deps, {
    workspaceId,
    productId,
    integrationId: store.id,
    mode,
    previous,
    ...(failOnLimit ? { failOnLimit } : {}),
  });
}

/**
 * Deleting a live product with its listings (archive or delete in each store): the product is claimed once and
 * each store's removal is a job; the last one to succeed deletes the product. Answers the jobs' ids by store.
 */
export async function startRemovals(
  deps: ProductsDeps,
  row: ProductRow,
  stores: StoreRow[],
  removal: 'archive' | 'delete',
  keep?: { previous: PushableStatus },
): Promise<{ integrationId: string; jobId: string }[]> {
  if (!(await claimForPush(deps.db, row, deps.now()))) {
    throw conflict(`"${row.title}" is being pushed to a store; try again when it is done`);
  }
  const started = [];
  for (const store of stores) {
    const jobId = await queuePush(deps, {
      workspaceId: row.workspaceId,
      productId: row.id,
      integrationId: store.id,
      mode: 'remove',
      previous: keep?.previous ?? 'live',
      removal,
      ...(keep ? { keepProduct: true } : {}),
    });
    started.push({ integrationId: store.id, jobId });
  }
  return started;
}

/** Waits until the push's row is no longer processing by this job (or `timeoutMs` passed); answers the row. */
export async function waitForPush(
  deps: ProductsDeps,
  job: JobKey,
  jobId: string,
  timeoutMs = deps.config.storePushWaitSeconds * 1000,
): Promise<PushRow | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await publicationOf(deps, job.workspaceId, job.productId, job.integrationId);
    if (row?.status !== 'processing' || row.jobId !== jobId || deferredUntil(row) || Date.now() >= until) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * When a deferred push resumes: a push that met a store's long rate limit (a spent day's budget) waits as a delayed
 * job, its row processing with the instant in `errorDetails.resumesAt` (and `progress` saying so); null otherwise.
 */
export function deferredUntil(row: Pick<PushRow, 'status' | 'errorDetails'> | null | undefined): Date | null {
  if (row?.status !== 'processing') return null;
  const at = row.errorDetails?.resumesAt;
  if (!at) return null;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A deferred push as the waiting call answers it: 503 rate-limited with the seconds left (a schedule moves by them). */
function deferredFailure(row: PushRow, until: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return new AppError(503, ErrorCode.RateLimited, row.progress ?? 'Waiting for the store', {
    retryAfterSeconds: String(seconds),
    resumesAt: until.toISOString(),
  });
}

/** A settled push that failed, as the call answers it: its status, code and details (e.g. `retryAfterSeconds`). */
export function pushFailure(row: PushRow | null): AppError {
  const status = row?.errorStatus ?? 502;
  const code =
    (row?.errorCode as TErrorCode | null) ??
    (status === 503 ? ErrorCode.RateLimited : status >= 500 ? ErrorCode.Upstream : ErrorCode.Conflict);
  return new AppError(status, code, row?.error ?? 'The push did not finish; please try again', row?.errorDetails ?? {});
}

/**
 * For callers with time (a scheduled upload's worker): waits for the product's push to this store to settle, up to
 * `timeoutMs`, and answers it as the upload call would (throws the failure).
 */
export async function settledPush(deps: ProductsDeps, job: JobKey, timeoutMs: number): Promise<TStoreUploadResult> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await publicationOf(deps, job.workspaceId, job.productId, job.integrationId);
    const waiting = deferredUntil(row);
    // A push deferred for the store's limit is not waited for (hours): the caller hears until when.
    if (row && waiting) throw deferredFailure(row, waiting, deps.now());
    if (row && row.status !== 'processing') {
      if (row.status === 'published' && row.error === null && row.remoteProductId) {
        const store = await storeConnection(deps.db, row.workspaceId, row.integrationId);
        if (!store) throw conflict('The store is no longer connected');
        return {
          success: true,
          platform: store.platform as TStorePlatform,
          integrationId: row.integrationId,
          remoteProductId: row.remoteProductId,
          remoteUrl: row.remoteUrl ?? '',
        };
      }
      throw pushFailure(row);
    }
    if (!row || Date.now() >= until) throw new AppError(504, ErrorCode.Upstream, 'The push is still running');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

type Failure = { message: string; status: number; code: TErrorCode; details?: Record<string, string> };

/** The failure as the seller reads it, with the HTTP status, code and details it answers with. */
function failureOf(error: unknown, publisher: StorePlatform | null): Failure {
  const fromApp = (e: AppError): Failure => ({
    message: e.message,
    status: e.statusCode,
    code: e.code,
    details: e.details,
  });
  if (error instanceof AppError) return fromApp(error);
  if (publisher) return fromApp(refusalOf(publisher, error));
  return { message: 'The push failed unexpectedly', status: 500, code: ErrorCode.Upstream };
}

type Outcome =
  | { ok: true; remoteProductId: string; remoteUrl: string; remoteVariants?: Record<string, string> }
  | { ok: true; removed: true }
  | Failed;
type Failed = { ok: false; failure: Failure };

/**
 * Writes what the push did, if the row is still this job's, and settles the product's status once no other push of
 * it is running (the product row is locked first, so two removals settling at once see each other).
 */
async function settle(deps: ProductsDeps, job: StorePushJob, jobId: string, outcome: Outcome): Promise<void> {
  const at = deps.now();
  const deleteProduct = await deps.db.transaction(async (tx) => {
    await lockProduct(tx, job.workspaceId, job.productId);
    let moved: boolean;
    if (!outcome.ok) {
      moved = await settlePublication(tx, job, jobId, {
        // An update or removal that failed leaves the listing as it was: still published.
        status: job.mode === 'create' ? 'failed' : 'published',
        error: outcome.failure.message,
        errorStatus: outcome.failure.status,
        errorCode: outcome.failure.code,
        errorDetails: outcome.failure.details ?? null,
        progress: null,
        updatedAt: at,
      });
    } else if ('removed' in outcome) {
      moved = await settlePublication(tx, job, jobId, 'delete');
    } else {
      moved = await settlePublication(tx, job, jobId, {
        status: 'published',
        remoteProductId: outcome.remoteProductId,
        remoteUrl: outcome.remoteUrl,
        ...(outcome.remoteVariants ? { remoteVariants: outcome.remoteVariants } : {}),
        error: null,
        errorStatus: null,
        errorCode: null,
        errorDetails: null,
        progress: null,
        publishedAt: at,
        updatedAt: at,
      });
    }
    if (!moved) return false;
    const others = await otherActivePublications(tx, job);
    if (others.some((p) => p.status === 'processing')) return false;
    // The last removal of a product being deleted: nothing of it is listed any more.
    if (job.mode === 'remove' && outcome.ok && others.length === 0 && !job.keepProduct) return true;
    await settlePush(tx, { id: job.productId, workspaceId: job.workspaceId }, job.previous, at);
    return false;
  });
  if (deleteProduct) {
    await deletePrintFiles(deps, job.productId, job.workspaceId);
    // Variants, links, print file rows, publications and schedules go with it (cascade); mockups and the design stay.
    await deleteProductRow(deps.db, job.workspaceId, job.productId);
  }
}

/**
 * The store's side of one push, through the platform's adapter (the StorePlatform port): given the listing id an
 * earlier run recorded and a way to record a new one before anything else is sent.
 */
async function pushRemote(
  deps: ProductsDeps,
  job: StorePushJob,
  jobId: string,
  pub: PushRow,
  product: ProductRow,
  store: StoreRow,
  publisher: StorePlatform | null,
  report: (step: string) => Promise<void>,
): Promise<Outcome> {
  if (store.status !== 'connected' || store.verifiedAt === null) {
    throw conflict(`${store.storeName ?? platformLabel(store.platform)} is not connected any more`);
  }
  if (!publisher) throw conflict(`${platformLabel(store.platform)} is not available yet`);
  const ctx: PublishContext = {
    workspaceId: job.workspaceId,
    store,
    product: await loadPushProduct(deps, job.workspaceId, product),
    remoteProductId: pub.remoteProductId,
    startedAt: pub.updatedAt,
    saveRemoteId: async (remoteProductId) => {
      await updatePublicationOfJob(deps.db, pub.id, jobId, { remoteProductId, updatedAt: deps.now() });
    },
    progress: report,
  };
  if (job.mode === 'create') return { ok: true, ...(await publisher.publish(ctx)) };
  const remoteProductId = pub.remoteProductId;
  if (job.mode === 'remove') {
    if (remoteProductId) {
      await report('Removing the listing');
      await publisher.remove({ ...ctx, remoteProductId }, job.removal ?? 'archive');
    }
    return { ok: true, removed: true };
  }
  if (!remoteProductId) throw conflict(`"${product.title}" is not in ${store.storeName ?? store.externalId} yet`);
  return { ok: true, ...(await publisher.update({ ...ctx, remoteProductId })) };
}

/** A store's rate-limit wait this long or longer defers the push (adapters name the wait only when it is long). */
const DEFER_FROM_SECONDS = 60;

/** Seconds to defer the push by, when it failed for a store's long rate limit (a spent day's budget). */
function limitWait(failure: Failure): number | null {
  if (failure.code !== ErrorCode.RateLimited) return null;
  const seconds = Number(failure.details?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds >= DEFER_FROM_SECONDS ? seconds : null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Waiting for <store>'s request limit; resumes at 14:05 UTC" (the day named when it is not today's, in UTC). */
export function waitingText(storeLabel: string, at: Date, now: Date): string {
  const time = at.toISOString().slice(11, 16);
  const sameDay = at.toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
  const day = sameDay ? '' : ` on ${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
  return `Waiting for ${storeLabel}'s request limit; resumes at ${time} UTC${day}`;
}

/**
 * Defers the push to when the store's limit is back: the same job again as a delayed job (pg-boss keeps it, so it
 * survives a restart) under a new id, sent before the row names it (a process that dies between the two leaves the
 * row to this job's retry, which meets the limit and defers again). The row stays processing (the product too), with
 * no error, the instant in `errorDetails.resumesAt` and `progress` saying so; the listing id a first run recorded
 * stays, so the resumed run finishes that listing.
 */
async function defer(
  deps: ProductsDeps,
  job: StorePushJob,
  jobId: string,
  pubId: string,
  failure: Failure,
  seconds: number,
  storeLabel: string,
): Promise<void> {
  const now = deps.now();
  // Rounded up to the minute the seller reads.
  const resumesAt = new Date(Math.ceil((now.getTime() + seconds * 1000) / 60_000) * 60_000);
  const nextId = randomUUID();
  await sendJob(deps.jobs, storePushJob, job, { id: nextId, startAfter: resumesAt });
  await updatePublicationOfJob(deps.db, pubId, jobId, {
    jobId: nextId,
    progress: waitingText(storeLabel, resumesAt, now),
    error: null,
    errorStatus: failure.status,
    errorCode: failure.code,
    errorDetails: { ...failure.details, resumesAt: resumesAt.toISOString() },
    updatedAt: now,
  });
}

/** One push job: the store's side, then the rows. */
export async function runPush(deps: ProductsDeps, job: JobWithMetadata<StorePushJob>): Promise<void> {
  const data = job.data;
  const pub = await publicationOf(deps, data.workspaceId, data.productId, data.integrationId);
  if (!pub || pub.jobId !== job.id || pub.status !== 'processing') return;
  if (deferredUntil(pub)) {
    // A deferred push resuming: it no longer waits.
    await updatePublicationOfJob(deps.db, pub.id, job.id, {
      progress: 'Resuming',
      errorStatus: null,
      errorCode: null,
      errorDetails: null,
      updatedAt: deps.now(),
    });
  }
  let outcome: Outcome;
  let publisher: StorePlatform | null = null;
  let storeLabel: string | null = null;
  try {
    const product = await findProduct(deps.db, data.workspaceId, data.productId);
    const store = await storeConnection(deps.db, data.workspaceId, data.integrationId);
    if (!store) throw conflict('The store is no longer connected');
    storeLabel = platformLabel(store.platform);
    publisher = deps.stores.get(store.platform);
    const report = async (step: string) => {
      await updatePublicationOfJob(deps.db, pub.id, job.id, { progress: step, updatedAt: deps.now() });
    };
    outcome = await pushRemote(deps, data, job.id, pub, product, store, publisher, report);
  } catch (error) {
    outcome = { ok: false, failure: failureOf(error, publisher) };
  }
  const wait = !outcome.ok && !data.failOnLimit && storeLabel ? limitWait(outcome.failure) : null;
  if (!outcome.ok && wait !== null && storeLabel) {
    await defer(deps, data, job.id, pub.id, outcome.failure, wait, storeLabel);
    return;
  }
  await settle(deps, data, job.id, outcome);
}

export function toPushState(row: PushRow): TPushState {
  const waiting = deferredUntil(row);
  return {
    integrationId: row.integrationId,
    state: waiting ? 'waiting' : row.status === 'processing' || row.status === 'pending' ? 'running' : row.status,
    progress: row.status === 'processing' ? row.progress : null,
    resumesAt: waiting?.toISOString() ?? null,
    error: row.error,
    remoteProductId: row.remoteProductId,
    remoteUrl: row.remoteUrl,
    updatedAt: row.updatedAt.toISOString(),
  };
}
