import { randomUUID } from 'node:crypto';
import { ErrorCode, type TPushState, type TStoreUploadResult } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import type { JobWithMetadata } from 'pg-boss';
import { integrations, publications } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { ShopifyError } from '../../integrations/shopify/client';
import { QUEUES } from '../../jobs/job-queue';
import { AppError, conflict } from '../../lib/errors';
import { claimForPush, type PushableStatus, settlePush } from './product-status';
import { findProduct } from './products.repository';

/** A publication row: one product in one store. */
type PushRow = typeof publications.$inferSelect;

/**
 * A store push is one pg-boss job per product and store (`store-push`): the request claims the product
 * (processing) and the publication row (processing, with the job's id), sends the job, and waits for the row to
 * settle for a while; the answer is then what the push did, or 'running' (the browser polls
 * `GET /api/products/:id/pushes`). The job runs on any instance and survives a restart: a job whose process ended
 * expires and pg-boss runs it again, and since productSet upserts by handle, the second run finishes the same
 * remote product. A job whose row has moved on (another job id, or no longer processing) does nothing.
 */

export type StorePushJob = {
  workspaceId: string;
  productId: string;
  integrationId: string;
  /** 'update' (a live product's listing brought up to date) keeps the listing published when it fails. */
  mode: 'create' | 'update';
  /** The product's status before the push, which it returns to when the push fails. */
  previous: PushableStatus;
};

type StoreRow = typeof integrations.$inferSelect;

/** An interrupted push (its process ended) is run again after this long, at most twice. */
const PUSH_JOB_OPTIONS = { retryLimit: 2, retryDelay: 5, expireInSeconds: 600 } as const;
/** Pushes one instance runs at once; they share each shop's cost bucket through the client's pacing. */
const PUSH_CONCURRENCY = 6;

const workers = new WeakMap<object, Promise<string[]>>();

/** Starts this instance's push workers once (at listen, or on the first push of an app that does not listen). */
export function ensurePushWorkers(deps: AppDeps): Promise<string[]> {
  let started = workers.get(deps.jobs);
  if (!started) {
    started = Promise.all(
      Array.from({ length: PUSH_CONCURRENCY }, () =>
        deps.jobs.work<StorePushJob>(QUEUES.storePush, { pollingIntervalSeconds: 1, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) await runPush(deps, job);
        }),
      ),
    );
    started.catch(() => workers.delete(deps.jobs));
    workers.set(deps.jobs, started);
  }
  return started;
}

const publicationWhere = (workspaceId: string, productId: string, integrationId: string) =>
  and(
    eq(publications.workspaceId, workspaceId),
    eq(publications.productId, productId),
    eq(publications.integrationId, integrationId),
  );

async function publicationOf(deps: AppDeps, workspaceId: string, productId: string, integrationId: string) {
  const [row] = await deps.db
    .select()
    .from(publications)
    .where(publicationWhere(workspaceId, productId, integrationId));
  return row ?? null;
}

/**
 * Claims the product and its publication for a push to `store` and sends the job; answers the job's id. A push of
 * this product to this store that is already running is joined (its id answered), never doubled.
 */
export async function startPush(
  deps: AppDeps,
  workspaceId: string,
  productId: string,
  store: StoreRow,
  mode: StorePushJob['mode'],
  previous: PushableStatus,
  staleOk = false,
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
  const jobId = randomUUID();
  const now = deps.now();
  await deps.db
    .insert(publications)
    .values({
      workspaceId,
      productId,
      integrationId: store.id,
      status: 'processing',
      jobId,
      progress: 'Queued',
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [publications.productId, publications.integrationId],
      set: { status: 'processing', jobId, progress: 'Queued', error: null, errorStatus: null, updatedAt: now },
    });
  const job: StorePushJob = { workspaceId, productId, integrationId: store.id, mode, previous };
  try {
    const workerIds = deps.config.jobsWorker ? await ensurePushWorkers(deps) : [];
    await deps.jobs.send(QUEUES.storePush, job, { id: jobId, ...PUSH_JOB_OPTIONS });
    for (const id of workerIds) await deps.jobs.notify(id);
  } catch (error) {
    await settle(deps, job, jobId, {
      ok: false,
      message: 'The push could not be queued; please try again',
      status: 503,
    });
    throw error;
  }
  return jobId;
}

/** Waits until the push's row is no longer processing by this job (or `timeoutMs` passed); answers the row. */
export async function waitForPush(
  deps: AppDeps,
  job: Pick<StorePushJob, 'workspaceId' | 'productId' | 'integrationId'>,
  jobId: string,
  timeoutMs = deps.config.storePushWaitSeconds * 1000,
): Promise<PushRow | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await publicationOf(deps, job.workspaceId, job.productId, job.integrationId);
    if (row?.status !== 'processing' || row.jobId !== jobId || Date.now() >= until) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * For callers with time (a scheduled upload's worker): waits for the product's push to this store to settle, up to
 * `timeoutMs`, and answers it as the upload call would (throws the failure).
 */
export async function settledPush(
  deps: AppDeps,
  job: Pick<StorePushJob, 'workspaceId' | 'productId' | 'integrationId'>,
  timeoutMs: number,
): Promise<TStoreUploadResult> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await publicationOf(deps, job.workspaceId, job.productId, job.integrationId);
    if (row && row.status !== 'processing') {
      if (row.status === 'published' && row.error === null && row.remoteProductId) {
        return {
          success: true,
          platform: 'shopify',
          integrationId: row.integrationId,
          remoteProductId: row.remoteProductId,
          remoteUrl: row.remoteUrl ?? '',
        };
      }
      throw new AppError(row.errorStatus ?? 502, ErrorCode.Upstream, row.error ?? 'The push did not finish');
    }
    if (!row || Date.now() >= until) throw new AppError(504, ErrorCode.Upstream, 'The push is still running');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The failure as the seller reads it, with the HTTP status it answers with. */
function failureOf(error: unknown): { message: string; status: number } {
  if (error instanceof AppError) return { message: error.message, status: error.statusCode };
  if (error instanceof ShopifyError) {
    const message = error.message.startsWith('Shopify') ? error.message : `Shopify: ${error.message}`;
    return { message, status: error.status === 429 ? 503 : 502 };
  }
  return { message: 'The push failed unexpectedly', status: 500 };
}

type Outcome =
  | { ok: true; remoteProductId: string; remoteUrl: string }
  | { ok: false; message: string; status: number };

/** Writes what the push did, if the row is still this job's, and settles the product's status. */
async function settle(deps: AppDeps, job: StorePushJob, jobId: string, outcome: Outcome) {
  const at = deps.now();
  await deps.db.transaction(async (tx) => {
    const where = and(
      publicationWhere(job.workspaceId, job.productId, job.integrationId),
      eq(publications.jobId, jobId),
      eq(publications.status, 'processing'),
    );
    const [moved] = outcome.ok
      ? await tx
          .update(publications)
          .set({
            status: 'published',
            remoteProductId: outcome.remoteProductId,
            remoteUrl: outcome.remoteUrl,
            error: null,
            errorStatus: null,
            progress: null,
            publishedAt: at,
            updatedAt: at,
          })
          .where(where)
          .returning({ id: publications.id })
      : await tx
          .update(publications)
          .set({
            // An update that failed leaves the listing as it was: still published.
            status: job.mode === 'update' ? 'published' : 'failed',
            error: outcome.message,
            errorStatus: outcome.status,
            progress: null,
            updatedAt: at,
          })
          .where(where)
          .returning({ id: publications.id });
    if (moved) await settlePush(tx, { id: job.productId, workspaceId: job.workspaceId }, job.previous, at);
  });
}

/** One push job: the store's side (ShopifyService.pushRemote), then the rows. */
export async function runPush(deps: AppDeps, job: JobWithMetadata<StorePushJob>): Promise<void> {
  const data = job.data;
  const pub = await publicationOf(deps, data.workspaceId, data.productId, data.integrationId);
  if (!pub || pub.jobId !== job.id || pub.status !== 'processing') return;
  let outcome: Outcome;
  try {
    const product = await findProduct(deps.db, data.workspaceId, data.productId);
    const [store] = await deps.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.id, data.integrationId), eq(integrations.workspaceId, data.workspaceId)));
    if (!store) throw conflict('The store is no longer connected');
    if (store.platform !== 'shopify') throw conflict(`${store.platform} is not available yet`);
    const report = async (step: string) => {
      await deps.db
        .update(publications)
        .set({ progress: step, updatedAt: deps.now() })
        .where(and(eq(publications.id, pub.id), eq(publications.jobId, job.id)));
    };
    const pushed = await deps.shopify.pushRemote(data.workspaceId, product, store, report);
    outcome = { ok: true, ...pushed };
  } catch (error) {
    outcome = { ok: false, ...failureOf(error) };
  }
  await settle(deps, data, job.id, outcome);
}

export function toPushState(row: PushRow): TPushState {
  return {
    integrationId: row.integrationId,
    state: row.status === 'processing' || row.status === 'pending' ? 'running' : row.status,
    progress: row.status === 'processing' ? row.progress : null,
    error: row.error,
    remoteProductId: row.remoteProductId,
    remoteUrl: row.remoteUrl,
    updatedAt: row.updatedAt.toISOString(),
  };
}
