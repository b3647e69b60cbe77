import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  bulkPrice,
  DEFAULT_ADJUSTMENTS,
  DEFAULT_FULFILMENT_NETWORK,
  ErrorCode,
  mockupProductType,
  PRODUCT_VARIANTS_MAX,
  platformLabel,
  SCHEDULE_PAST_MESSAGE,
  scheduleIsPast,
  type TBulkJob,
  type TCatalogProductDetail,
  type TMockupProductType,
  type TProductType,
  type TStoreFee,
  type TStorePlatform,
  type TVariantChoice,
  variantLabel,
  ZCreateProduct,
  type ZStartBulk,
} from '@podforge/contract';
import { z } from 'zod';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { AppError, badRequest, conflict, notFound, notImplemented } from '../../lib/errors';
import { machineCacheDir } from '../../lib/machine-cache';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { generateContent, productTypeOf } from '../ai/ai.service';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import { getDesignRow } from '../designs/designs.service';
import { TemplateStore } from '../mockups/mockup-render';
import { createMockup } from '../mockups/mockups.service';
import { catalogueFor } from '../printers/printer-catalogue';
import { catalogColours, matchCatalogColour } from '../products/product-variants';
import { publicationsOf } from '../products/products.repository';
import { insertProduct, prepareCreate } from '../products/products.service';
import { settledPush } from '../products/store-push';
import { pushToStore } from '../schedules/schedules.jobs';
import { productSchedules } from '../schedules/schedules.repository';
import { createSchedule, MAX_DAYS_AHEAD, scheduledInstant } from '../schedules/schedules.service';
import { getSettings } from '../settings/settings.routes';
import { findStoreConnections, storeConnection } from '../stores/store-connections.repository';
import type { IntegrationRow } from '../stores/store-publisher';
import type { BulkDeps } from './bulk.deps';
import {
  type BulkItemRow,
  type BulkPushRow,
  type BulkRunRow,
  claimItem,
  claimRun,
  deleteRun,
  existingDesignIds,
  failRun,
  findRun,
  finishRunIfSettled,
  insertRun,
  itemsOf,
  markDone,
  markFailed,
  markPushing,
  nextPush,
  nextSlice,
  productExists,
  pushesOf,
  recordListing,
  recordMockup,
  recordPlannedProduct,
  recordProduct,
  releaseRun,
  requeueFailed,
  runningRuns,
  scheduledPushCount,
  settlePushRow,
} from './bulk.repository';

/**
 * Bulk creation (#32): many designs on many blanks in one pg-boss job per run. Everything the seller asked for is
 * checked when the run starts (designs, blanks, colours, and every variant's price against its cost), so a run
 * never stops on a rule. Each design x blank is a `bulk_items` row that records what was made as it is made (each
 * colour's mockup, the listing text, the product's id before its insert, then the product), so a job killed mid-run
 * and run again carries on and makes nothing twice. The product itself is made by the single create flow's
 * `prepareCreate` + `insertProduct`, its mockups by `createMockup`, its text by the AI service's `generateContent`.
 *
 * With stores chosen, each made product is pushed to each store by the same job, one push at a time, through the
 * upload path a seller's Upload button takes (`pushToStore`: the port's `problems` first, then the `store-push`
 * job); with a schedule, its upload is scheduled instead (`createSchedule`), each store's uploads one pace apart
 * from the seller's time (`plannedAfterSeconds`, the store adapter's `pushPaceSeconds`). So a run never has two
 * pushes in any store at once, now or at its scheduled time, and each client keeps its store's own limits (a cost
 * bucket, calls per second). A push's outcome is a `bulk_pushes` row; a resumed run finds a push the store already
 * has (or the schedule it made) before pushing (or scheduling) again.
 */

type StartInput = z.output<typeof ZStartBulk>;

/** Products of one run made at once (the renders share the machine's cores with the requests). */
const RUN_PARALLELISM = 2;

/** One blank as a bulk run makes it: its variants at the rule's prices, and a mockup colour per catalogue colour. */
type BlankPlan = {
  detail: TCatalogProductDetail;
  productType: TProductType;
  mockupType: TMockupProductType;
  templateId: string;
  colours: string[];
  sizes: string[];
  /** Catalogue colour -> the mockup template colour showing it (absent: no template colour is close). */
  templateColours: Record<string, string>;
  variants: TVariantChoice[];
};

/**
 * The blank's colours the seller chose (matched by name, any case; the blank's first when none chosen), its
 * variants of them priced by the rule. 400 naming the blank or the variant the rule cannot sell.
 */
export function planBlank(
  detail: TCatalogProductDetail,
  colors: string[] | undefined,
  pricing: StartInput['pricing'],
  fee: TStoreFee,
): BlankPlan {
  const all = catalogColours(detail);
  let colours: string[];
  if (colors?.length) {
    const wanted = new Set(colors.map((c) => c.toLowerCase()));
    colours = all.filter((c) => wanted.has(c.name.toLowerCase())).map((c) => c.name);
    if (colours.length === 0) {
      throw badRequest(`colors: ${detail.name} comes in none of ${colors.join(', ')}`);
    }
  } else {
    colours = all.slice(0, 1).map((c) => c.name);
  }
  const chosen = detail.variants.filter((v) => colours.includes(v.color));
  if (chosen.length === 0) throw badRequest(`catalogProductIds: ${detail.name} has no variants to sell`);
  if (chosen.length > PRODUCT_VARIANTS_MAX) {
    throw badRequest(
      `colors: ${detail.name} in ${colours.join(', ')} has ${chosen.length} variants; a product has at most ${PRODUCT_VARIANTS_MAX}`,
    );
  }
  const problems: string[] = [];
  const variants = chosen.map((v) => {
    const { price, problem } = bulkPrice(pricing, v.baseCost, fee);
    if (problem) problems.push(`${detail.name} ${variantLabel(v.color, v.size)}: price ${price.toFixed(2)} ${problem}`);
    return { catalogVariantId: v.id, price };
  });
  if (problems.length) throw badRequest(`pricing: ${problems.join('; ')}`);
  const productType = productTypeOf(detail.type) as TProductType;
  const mockupType = mockupProductType(productType);
  const set = TEMPLATE_SETS[mockupType];
  const templateColours: Record<string, string> = {};
  for (const colour of colours) {
    const template = set.colors.find((c) => matchCatalogColour(c, all) === colour);
    if (template) templateColours[colour] = template.id;
  }
  return {
    detail,
    productType,
    mockupType,
    templateId: set.templates[0]?.id ?? '',
    colours,
    sizes: [...new Set(chosen.map((v) => v.size))],
    templateColours,
    variants,
  };
}

async function storeFee(deps: BulkDeps, workspaceId: string, platform: string): Promise<TStoreFee> {
  const settings = await getSettings(deps.db, workspaceId);
  return (settings.storeFees as Record<string, TStoreFee>)[platform] ?? { percent: 0, fixed: 0 };
}

/** Every blank of the run, planned (404 naming an unknown blank). */
async function planBlanks(deps: BulkDeps, workspaceId: string, input: StartInput): Promise<Map<number, BlankPlan>> {
  const source = await catalogueFor(deps, DEFAULT_FULFILMENT_NETWORK, workspaceId);
  const fee = await storeFee(deps, workspaceId, input.platform);
  const plans = new Map<number, BlankPlan>();
  for (const id of input.catalogProductIds) {
    const detail = await getCatalogProductDetail(source, id);
    plans.set(id, planBlank(detail, input.colors, input.pricing, fee));
  }
  return plans;
}

export const bulkCreateJob = defineJob({
  name: QUEUES.bulkCreate,
  payload: z.object({ workspaceId: z.string(), runId: z.string() }),
  /** A job whose process ended (expired) or that failed outside an item runs again and resumes. */
  retry: { retryLimit: 5, retryDelay: 2, expireInSeconds: 3600 },
  workers: { count: 1, pollingIntervalSeconds: 1, batchSize: 1 },
  handle: (deps: BulkDeps, job) => runBulk(deps, job.data.workspaceId, job.data.runId, job.signal),
  /** At start-up: a run whose job gave up or was lost while no server ran says so. */
  started: async (deps: BulkDeps) => {
    for (const run of await runningRuns(deps.db)) await settleAbandoned(deps, run);
  },
});

/** How long a run may be running before its job is sent (the moment between recording it and sending). */
const SEND_GRACE_MS = 60_000;

/** The job of the run's current attempt and slice (the first slice keeps the id runs were sent under before slices). */
const runJobId = (run: BulkRunRow) =>
  jobIdOf(run.slice === 0 ? `bulk:${run.id}:${run.attempt}` : `bulk:${run.id}:${run.attempt}:${run.slice}`);

/**
 * A long run is safe across pg-boss's expiry (an hour): each job works a slice of the run (`sliceMs` taking new
 * items and pushes, then the ones under way finish: a push is followed at most PUSH_SETTLE_MS) and sends the next
 * slice's job; and a job holds the run's claim (renewed every third of `claimMs`) while it works, so a second
 * attempt (a retry of a job that expired, on any instance) waits for it instead of working the run twice.
 */
export const bulkSlicing = { sliceMs: 20 * 60_000, claimMs: 2 * 60_000, claimPollMs: 2000 };

/**
 * A running run whose job is no longer waiting or at work (pg-boss failed it once its retries were spent, or it is
 * gone) will never move: it is failed with the reason, and the seller's retry carries on from where it stopped.
 */
async function settleAbandoned(deps: BulkDeps, run: BulkRunRow): Promise<BulkRunRow> {
  if (run.status !== 'running') return run;
  const state = await deps.jobs.state(bulkCreateJob.name, runJobId(run));
  if (state === 'created' || state === 'retry' || state === 'active') return run;
  // A run (or retry) just recorded may not have sent its job yet.
  if (state === null && deps.now().getTime() - run.startedAt.getTime() < SEND_GRACE_MS) return run;
  const reason =
    state === 'failed'
      ? 'The bulk job stopped after its retries with work left; retry to carry on where it stopped'
      : 'The bulk job ended with work left; retry to carry on where it stopped';
  await failRun(deps.db, run.id, run.attempt, reason, deps.now());
  return (await findRun(deps.db, run.workspaceId, run.id)) ?? run;
}

async function sendRun(deps: BulkDeps, run: BulkRunRow): Promise<void> {
  await sendJob(deps.jobs, bulkCreateJob, { workspaceId: run.workspaceId, runId: run.id }, { id: runJobId(run) });
  if (deps.config.jobsWorker) await wakeWorkers(deps.jobs, bulkCreateJob);
}

/** `POST /api/bulk`: checks everything, records the run and its items, and sends its one job. */
export async function startBulk(deps: BulkDeps, workspaceId: string, input: StartInput): Promise<TBulkJob> {
  const found = await existingDesignIds(deps.db, workspaceId, input.designIds);
  const missing = input.designIds.filter((id) => !found.has(id));
  if (missing.length) {
    throw new AppError(404, ErrorCode.NotFound, `designIds: design ${missing.join(', ')} not found`);
  }
  await planBlanks(deps, workspaceId, input);
  const storeIds = await checkStores(deps, workspaceId, input);
  const pairs = input.designIds.flatMap((designId) =>
    input.catalogProductIds.map((catalogProductId) => ({ designId, catalogProductId })),
  );
  const run = await insertRun(deps.db, workspaceId, input, pairs, storeIds);
  try {
    await sendRun(deps, run);
  } catch (error) {
    // Nothing half-started is kept: without its job the run would never move.
    await deleteRun(deps.db, run.id);
    deps.jobs.log.error({ err: error, runId: run.id }, 'bulk job could not be queued');
    throw new AppError(503, ErrorCode.Upstream, 'The bulk job could not be queued; please try again');
  }
  return getBulk(deps, workspaceId, run.id);
}

/**
 * The stores to push to (404 for one not the workspace's, 409 for one not connected, 501 for a platform with no
 * adapter) and the schedule (400 when in the past, or without stores); answers the stores' ids.
 */
async function checkStores(deps: BulkDeps, workspaceId: string, input: StartInput): Promise<string[]> {
  const ids = input.stores ?? [];
  if (input.schedule) {
    if (ids.length === 0) throw badRequest('schedule: choose the stores to push to');
    const { scheduledDate, scheduledTime, timeZone } = input.schedule;
    const at = scheduledInstant(scheduledDate, scheduledTime, timeZone);
    if (scheduleIsPast(at, deps.now())) throw badRequest(`schedule: ${SCHEDULE_PAST_MESSAGE}`);
    if (at.getTime() > deps.now().getTime() + MAX_DAYS_AHEAD * 86_400_000) {
      throw badRequest(`schedule: uploads can be scheduled up to ${MAX_DAYS_AHEAD} days ahead`);
    }
  }
  for (const store of await findStoreConnections(deps.db, workspaceId, ids)) {
    const name = store.storeName ?? platformLabel(store.platform);
    if (!deps.stores.get(store.platform))
      throw notImplemented(`stores: ${platformLabel(store.platform)} is not available yet`);
    if (store.status !== 'connected' || store.verifiedAt === null) {
      throw conflict(`stores: ${name} is not connected; reconnect it in Integrations first`);
    }
  }
  return ids;
}

type PushView = Awaited<ReturnType<typeof pushesOf>>[number];

/**
 * The one pacing rule of a run's scheduled uploads: the n-th (from 0) of the run's uploads to a store starts n of the
 * store's paces (its adapter's `pushPaceSeconds`) after the seller's time, so the store's pushes follow one another
 * as an immediate run's would instead of all starting at that instant.
 */
export const plannedAfterSeconds = (place: number, paceSeconds: number) => place * paceSeconds;

/** A store's pace by its adapter (a store with no adapter pushes nothing: no pace). */
function paceOf(deps: BulkDeps, store: IntegrationRow): number {
  return deps.stores.get(store.platform)?.pushPaceSeconds(store) ?? 0;
}

/**
 * When a scheduled run's uploads should be done: per store, the last one planned (or the seller's time when none is
 * yet) and those still to schedule, one pace apart by the same rule, plus that last upload's own pace. Null once no
 * upload of the run is left to run (every schedule ran, failed or was cancelled) and none is left to schedule.
 */
export function scheduledFinish(
  run: BulkRunRow,
  start: Date,
  items: BulkItemRow[],
  pushes: PushView[],
  paceSeconds: (integrationId: string) => number,
): Date | null {
  const failedItems = new Set(items.filter((i) => i.status === 'failed').map((i) => i.id));
  const byStore = new Map<string, { left: number; open: boolean; last: number | null }>();
  for (const { push, schedule } of pushes) {
    const store = byStore.get(push.integrationId) ?? { left: 0, open: false, last: null };
    byStore.set(push.integrationId, store);
    const toSchedule = push.status === 'pending' || push.status === 'pushing';
    if (run.status === 'running' && toSchedule && !failedItems.has(push.itemId)) store.left++;
    if (push.status === 'scheduled' && schedule) {
      store.last = Math.max(store.last ?? 0, schedule.runAt.getTime());
      if (schedule.status === 'pending' || schedule.status === 'running') store.open = true;
    }
  }
  let finish: number | null = null;
  for (const [integrationId, store] of byStore) {
    if (!store.open && store.left === 0) continue;
    const pace = paceSeconds(integrationId) * 1000;
    const last = store.last ?? start.getTime() - pace;
    const at = last + plannedAfterSeconds(store.left + 1, pace);
    finish = Math.max(finish ?? at, at);
  }
  return finish === null ? null : new Date(finish);
}

/**
 * When what is left should be done, at the pace this run kept: its products made so far (wall clock from the start
 * of its current attempt, the parallel renders included) and each store's pushes (their mean time; pushes go one at a time, so the
 * stores' times add up). Null when nothing is left, or a pace that is needed is not known yet (nothing made, or
 * no push to that store finished).
 */
export function expectedFinish(run: BulkRunRow, items: BulkItemRow[], pushes: PushView[], now: Date): Date | null {
  if (run.status !== 'running') return null;
  const start = run.startedAt.getTime();
  // Made by this attempt (a retry's pace is its own).
  const made = items.filter((i) => i.status === 'done' && i.updatedAt.getTime() >= start);
  const toMake = items.filter((i) => i.status === 'pending' || i.status === 'running').length;
  let makeMs = 0;
  if (toMake > 0) {
    if (made.length === 0) return null;
    const last = Math.max(...made.map((i) => i.updatedAt.getTime()));
    makeMs = (toMake * (last - start)) / made.length;
  }
  const failedItems = new Set(
    items.filter((i) => i.status === 'failed' || (i.status === 'done' && !i.productId)).map((i) => i.id),
  );
  const byStore = new Map<string, { left: number; spent: number; pushed: number; limited?: boolean }>();
  for (const { push } of pushes) {
    const store = byStore.get(push.integrationId) ?? { left: 0, spent: 0, pushed: 0 };
    byStore.set(push.integrationId, store);
    if ((push.status === 'pending' || push.status === 'pushing') && !failedItems.has(push.itemId)) store.left++;
    // A push the store's spent limit deferred (a scheduled push with no schedule) took no push's time.
    if (push.status === 'scheduled' && !push.scheduleId) store.limited = true;
    else if ((push.status === 'pushed' || push.status === 'scheduled') && push.startedAt && push.finishedAt) {
      store.spent += push.finishedAt.getTime() - push.startedAt.getTime();
      store.pushed++;
    }
  }
  let pushMs = 0;
  let cycleMs = 0;
  for (const store of byStore.values()) {
    // A store whose limit is spent defers what is left for it at once (each push resumes by itself, later).
    if (store.left === 0 || store.limited) continue;
    if (store.pushed === 0) return null;
    pushMs += (store.left * store.spent) / store.pushed;
    cycleMs += store.spent / store.pushed;
  }
  if (toMake === 0 && pushMs === 0) return null;
  // The last product's pushes come after it is made.
  return new Date(now.getTime() + Math.max(makeMs + cycleMs, pushMs));
}

/** `GET /api/bulk/:jobId`. */
export async function getBulk(deps: BulkDeps, workspaceId: string, runId: string): Promise<TBulkJob> {
  const found = await findRun(deps.db, workspaceId, runId);
  if (!found) throw notFound('Bulk job');
  const run = await settleAbandoned(deps, found);
  const items = await itemsOf(deps.db, run.id);
  const pushes = await pushesOf(deps.db, run.id);
  const input = run.request as StartInput;
  const schedule = input.schedule;
  const pushesOfItem = (itemId: string) =>
    pushes
      .filter((p) => p.push.itemId === itemId)
      .map(({ push, platform, storeName, schedule: planned }) => ({
        integrationId: push.integrationId,
        platform,
        storeName,
        status: push.status,
        remoteUrl: push.remoteUrl,
        error: push.error,
        scheduledFor: push.status === 'scheduled' && planned ? planned.runAt.toISOString() : null,
      }));
  const productOf = new Map(items.map((i) => [i.id, i.productId]));
  const scheduledFor = schedule
    ? scheduledInstant(schedule.scheduledDate, schedule.scheduledTime, schedule.timeZone)
    : null;
  let finish: Date | null;
  if (scheduledFor) {
    const stores = await findStoreConnections(deps.db, workspaceId, [
      ...new Set(pushes.map((p) => p.push.integrationId)),
    ]);
    const paces = new Map(stores.map((store) => [store.id, paceOf(deps, store)]));
    finish = scheduledFinish(run, scheduledFor, items, pushes, (id) => paces.get(id) ?? 0);
  } else {
    finish = expectedFinish(run, items, pushes, deps.now());
  }
  return {
    jobId: run.id,
    status: run.status,
    error: run.error,
    expectedFinishAt: finish?.toISOString() ?? null,
    scheduledFor: scheduledFor?.toISOString() ?? null,
    pushFailures: pushes.flatMap(({ push }) => {
      const productId = productOf.get(push.itemId);
      return push.status === 'failed' && productId
        ? [{ productId, integrationId: push.integrationId, error: push.error ?? 'Failed' }]
        : [];
    }),
    done: items.filter((i) => i.status === 'done').length,
    total: items.length,
    productIds: items.flatMap((i) => (i.status === 'done' && i.productId ? [i.productId] : [])),
    failures: items.flatMap((i) =>
      i.status === 'failed'
        ? [{ designId: i.designId, catalogProductId: i.catalogProductId, error: i.error ?? 'Failed' }]
        : [],
    ),
    items: items.map((i) => ({
      designId: i.designId,
      catalogProductId: i.catalogProductId,
      status: i.status,
      productId: i.productId,
      error: i.error,
      pushes: pushesOfItem(i.id),
    })),
  };
}

/**
 * `POST /api/bulk/:jobId/retry`: the failed items made and the failed pushes pushed again by a new job of the run,
 * or a run whose job gave up carried on (409 while it runs).
 */
export async function retryBulk(deps: BulkDeps, workspaceId: string, runId: string): Promise<TBulkJob> {
  const found = await findRun(deps.db, workspaceId, runId);
  if (!found) throw notFound('Bulk job');
  const run = await settleAbandoned(deps, found);
  if (run.status === 'running') throw conflict('The bulk job is still running; retry its failures once it is done');
  const requeued = await requeueFailed(deps.db, workspaceId, runId);
  if (!requeued) throw conflict('The bulk job has no failures to retry');
  await sendRun(deps, requeued);
  return getBulk(deps, workspaceId, runId);
}

/** The mockups' renderer of this process, per deps (its template drawings are cached for the machine). */
const templateStores = new WeakMap<object, TemplateStore>();
function templatesOf(deps: BulkDeps): TemplateStore {
  let store = templateStores.get(deps);
  if (!store) {
    store = new TemplateStore(machineCacheDir('mockup-templates', path.join(deps.config.dataDir, 'mockup-templates')));
    templateStores.set(deps, store);
  }
  return store;
}

const messageOf = (error: unknown) =>
  error instanceof AppError ? error.message : 'Something went wrong making this product; retry it';

/** Servers (their deps) that are closing: their runs take no further item and record no failure. */
const closing = new WeakSet<object>();
/** The runs each server (its deps) holds the claim of: run id -> the attempt's owner id. */
const claimsOf = new WeakMap<object, Map<string, string>>();
/**
 * Called as the server starts to close (before its decode pool and queue stop under the running items): its runs'
 * claims are given up, so the next attempt, on another instance or after the restart, takes them at once.
 */
export async function stopBulkRuns(deps: BulkDeps): Promise<void> {
  closing.add(deps);
  for (const [runId, owner] of claimsOf.get(deps) ?? []) await releaseRun(deps.db, runId, owner);
}

/**
 * The job: claims the run (waiting while another attempt holds it), then works a slice of it: makes the items
 * still to make, two at a time (an item that fails is recorded and the rest go on), and pushes what is made. A
 * closing server (or `signal`, aborted when the job expired or the queue's grace is spent) takes no further item
 * and leaves the one at work as it is: the job runs again and resumes it (after this attempt ends, or its server
 * closed).
 */
export async function runBulk(deps: BulkDeps, workspaceId: string, runId: string, signal?: AbortSignal): Promise<void> {
  if (!(await findRun(deps.db, workspaceId, runId))) return;
  const owner = randomUUID();
  let lost = false;
  const stopping = () => lost || signal?.aborted === true || closing.has(deps);
  while (!(await claimRun(deps.db, runId, owner, bulkSlicing.claimMs))) {
    if (stopping()) throw new Error('The bulk job was stopped while another attempt worked the run');
    await new Promise((resolve) => setTimeout(resolve, bulkSlicing.claimPollMs));
  }
  const claims = claimsOf.get(deps) ?? new Map<string, string>();
  claimsOf.set(deps, claims.set(runId, owner));
  const renew = setInterval(() => {
    if (closing.has(deps)) return clearInterval(renew);
    claimRun(deps.db, runId, owner, bulkSlicing.claimMs).then(
      (held) => {
        lost ||= !held;
      },
      (error: unknown) => deps.jobs.log.warn({ err: error, runId }, 'bulk run claim not renewed'),
    );
  }, bulkSlicing.claimMs / 3);
  try {
    await runSlice(deps, workspaceId, runId, owner, stopping);
  } finally {
    clearInterval(renew);
    claims.delete(runId);
    await releaseRun(deps.db, runId, owner);
  }
}

/** One slice of a claimed run: items and pushes taken until the slice's time is up, then the next slice sent. */
async function runSlice(deps: BulkDeps, workspaceId: string, runId: string, owner: string, stopping: () => boolean) {
  const run = await findRun(deps.db, workspaceId, runId);
  if (run?.status !== 'running') return;
  const sliceEnds = Date.now() + bulkSlicing.sliceMs;
  const sliceOver = () => Date.now() >= sliceEnds;
  const input = run.request as StartInput;
  const todo = (await itemsOf(deps.db, run.id)).filter((i) => i.status === 'pending' || i.status === 'running');
  let plans: Map<number, BlankPlan> | null = null;
  let planError: unknown = null;
  try {
    plans = await planBlanks(deps, workspaceId, input);
  } catch (error) {
    // The catalogue changed since the start: every item says why.
    planError = error;
  }
  let making = true;
  let next = 0;
  const worker = async () => {
    // A slice takes at least one item, so every slice moves the run on.
    while (next < todo.length && !stopping() && (next === 0 || !sliceOver())) {
      const item = todo[next++];
      if (!item) break;
      const claimed = await claimItem(deps.db, item.id);
      if (!claimed) continue;
      try {
        const plan = plans?.get(item.catalogProductId);
        if (!plan) throw planError ?? badRequest(`catalogProductIds: blank ${item.catalogProductId} is not planned`);
        await makeItem(deps, workspaceId, input, claimed, plan);
      } catch (error) {
        if (stopping()) return;
        if (!(error instanceof AppError))
          deps.jobs.log.error({ err: error, runId, itemId: item.id }, 'bulk item failed');
        await markFailed(deps.db, item.id, messageOf(error));
      }
    }
  };
  // Pushes go one at a time, as products are made, in the order they were listed.
  const pusher = async () => {
    let pushed = 0;
    while (!stopping() && (pushed === 0 || !sliceOver())) {
      const stillMaking = making;
      const push = await nextPush(deps.db, run.id);
      if (push) {
        await makePush(deps, workspaceId, input, push, stopping);
        pushed++;
      } else if (stillMaking) await new Promise((resolve) => setTimeout(resolve, PUSH_POLL_MS));
      else break;
    }
  };
  const makers = Promise.all(Array.from({ length: RUN_PARALLELISM }, worker)).finally(() => {
    making = false;
  });
  await Promise.all([makers, input.stores?.length ? pusher() : null]);
  if (stopping()) throw new Error('The bulk job was stopped; it resumes when it runs again');
  if (await finishRunIfSettled(deps.db, run.id, deps.now())) return;
  if (!sliceOver()) return;
  // The next slice's job is sent before the run names it, so the run's job is always one pg-boss knows (this one is
  // active until it returns); it waits for this attempt's claim.
  const following = { ...run, slice: run.slice + 1 };
  await sendRun(deps, following);
  await nextSlice(deps.db, run.id, owner, run.slice);
}

/** How often the pusher looks for a product made meanwhile. */
const PUSH_POLL_MS = 250;
/** A push still running in the store push job after the upload call's own wait is followed this long. */
const PUSH_SETTLE_MS = 10 * 60_000;

/**
 * One product to one store: scheduled (once: a schedule a run that died already made is found), or pushed through
 * the upload path (once: a product the store already has, or is being pushed to, is not pushed again). A refusal
 * (the platform's listing rules, a store gone, a spent day budget) fails this push only, with its reason.
 */
async function makePush(
  deps: BulkDeps,
  workspaceId: string,
  input: StartInput,
  push: BulkPushRow & { productId: string },
  stopping: () => boolean,
): Promise<void> {
  await markPushing(deps.db, push.id, deps.now());
  const { productId } = push;
  try {
    const store = await storeConnection(deps.db, workspaceId, push.integrationId);
    if (!store) throw conflict('The store is no longer connected');
    const platform = store.platform as TStorePlatform;
    if (input.schedule) {
      const made = (await productSchedules(deps.db, workspaceId, productId)).find(
        (s) => s.integrationId === store.id && s.status !== 'failed',
      );
      // Its place in the store's line: after the run's uploads to the store scheduled before it.
      const after = async () =>
        plannedAfterSeconds(await scheduledPushCount(deps.db, push.runId, store.id), paceOf(deps, store));
      const scheduleId =
        made?.id ??
        (
          await createSchedule(
            deps,
            workspaceId,
            { productId, platform, integrationId: store.id, ...input.schedule, status: 'pending' },
            await after(),
          )
        ).id;
      await settlePushRow(deps.db, push.id, { status: 'scheduled', scheduleId }, deps.now());
      return;
    }
    const publication = async () =>
      ((await publicationsOf(deps.db, [productId])).get(productId) ?? []).find((p) => p.integrationId === store.id);
    const before = await publication();
    if (before?.status === 'processing') {
      await settledPush(deps, { workspaceId, productId, integrationId: store.id }, PUSH_SETTLE_MS);
    } else if (before?.status !== 'published') {
      // A store whose limit is spent for long (a day's budget) defers the push job itself: see the catch below.
      await pushToStore(deps, { deferOnLimit: true })({ workspaceId, productId, platform, integrationId: store.id });
    }
    await settlePushRow(
      deps.db,
      push.id,
      { status: 'pushed', remoteUrl: (await publication())?.remoteUrl ?? null },
      deps.now(),
    );
  } catch (error) {
    // A closing server leaves the push as it is: the job runs again and finds what the store has.
    if (stopping()) return;
    if (error instanceof AppError && error.details.resumesAt) {
      // Deferred (not failed) until the store's spent limit is back: the store push job resumes it by itself.
      await settlePushRow(deps.db, push.id, { status: 'scheduled', waiting: error.message }, deps.now());
      return;
    }
    if (!(error instanceof AppError)) deps.jobs.log.error({ err: error, pushId: push.id }, 'bulk push failed');
    await settlePushRow(deps.db, push.id, { status: 'failed', error: messageOf(error) }, deps.now());
  }
}

/** One design x blank: its colours' mockups, its listing text, then its product; each step recorded once done. */
async function makeItem(
  deps: BulkDeps,
  workspaceId: string,
  input: StartInput,
  item: BulkItemRow,
  plan: BlankPlan,
): Promise<void> {
  if (item.productId) {
    await markDone(deps.db, item.id);
    return;
  }
  const design = await getDesignRow(deps, workspaceId, item.designId);
  const mockupIds = { ...item.mockupIds };
  const mockupDeps = { ...deps, templates: templatesOf(deps) };
  for (const colour of plan.colours) {
    const templateColour = plan.templateColours[colour];
    if (mockupIds[colour] || !templateColour) continue;
    const mockup = await createMockup(mockupDeps, workspaceId, {
      designId: design.id,
      productType: plan.mockupType,
      templateId: plan.templateId,
      adjustments: { ...DEFAULT_ADJUSTMENTS },
      color: templateColour,
    });
    mockupIds[colour] = mockup.id;
    await recordMockup(deps.db, item.id, colour, mockup.id);
  }
  let listing = item.listing;
  if (!listing) {
    const content = await generateContent(deps, workspaceId, {
      kind: 'design',
      filename: design.name,
      productType: plan.productType,
      targetAudience: 'unisex',
      platform: input.platform,
      designDescription: '',
      designId: design.id,
      catalogProductId: plan.detail.id,
      colors: plan.colours,
      sizes: plan.sizes,
    });
    listing = { title: content.title, description: content.description, tags: content.tags };
    await recordListing(deps.db, item.id, listing);
  }
  const create = ZCreateProduct.safeParse({
    ...listing,
    productType: plan.productType,
    price: Math.min(...plan.variants.map((v) => v.price)),
    variants: plan.variants,
    designId: design.id,
    catalogProductId: plan.detail.id,
    mockupIds: plan.colours.flatMap((c) => (mockupIds[c] ? [mockupIds[c]] : [])),
    status: input.status,
  });
  if (!create.success) {
    const issue = create.error.issues[0];
    throw badRequest(`The listing text does not fit a product: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  // The id is recorded before the insert: a run killed after the insert finds the product and records it.
  if (item.plannedProductId && (await productExists(deps.db, workspaceId, item.plannedProductId))) {
    await recordProduct(deps.db, item.id, item.plannedProductId);
    return;
  }
  const prepared = await prepareCreate(deps, workspaceId, create.data, design.id);
  await recordPlannedProduct(deps.db, item.id, prepared.id);
  const product = await insertProduct(deps, workspaceId, create.data, prepared, design.id);
  await recordProduct(deps.db, item.id, product.id);
}
