// A collection in one bulk job (issue #32 point 5): BENCH_BULK_DESIGNS (100) designs x 3 blanks (Bella + Canvas 3001
// and Gildan 5000 tees, the Gildan 18500 hoodie) x 5 colours through `POST /api/bulk` and its `bulk-create` job: 1,500
// mockups and 300 products (listing text from the offline provider, markup prices), in this process on a new data
// folder (embedded PGlite, local disk), as a listening server runs it. The designs are uploaded first (1500x1800
// PNGs, so each has its working copy), not timed. Prints the time, the peak memory of this process and its decoders
// (PSS) and each target beside its figure, with the load average. Not a test.
import os from 'node:os';
import type { TBulkJob } from '@podforge/contract';
import { count, eq } from 'drizzle-orm';
import { mockups } from '../apps/server/src/db/schema';
import { startWorker } from '../apps/server/src/jobs/workers';
import { bulkCreateJob } from '../apps/server/src/modules/bulk/bulk.service';
import { createTestApp } from '../apps/server/test/helpers';
import { multipart } from '../apps/server/test/support/design-fixtures';
import { load, ms, printDesignPng, treePssOf, verdict } from './support';

const DESIGNS = Number(process.env.BENCH_BULK_DESIGNS ?? 100);
const BLANKS = [71, 438, 146];
/** Five of each blank's colours: the tee 71 has White, Black, Navy, Red, Forest; 438 and 146 Maroon and Sand or Forest. */
const COLORS = ['White', 'Black', 'Navy', 'Red', 'Forest', 'Maroon', 'Sand'];
const PER_BLANK = 5;
const TARGET = { ms: 3 * 60_000, mb: 1024, designs: 100 };

const treePss = () => treePssOf(process.pid);

// 1,500 mockups and 300 listings pass one workspace's default storage quota (2 GB) and AI credits (200).
const app = await createTestApp({ env: { STORAGE_QUOTA_MB: '100000', AI_MONTHLY_CREDITS: '100000' } });
try {
  const client = app.client();
  const workspaceId = await client.workspaceId(app.deps.db);
  console.log(`Machine: ${os.availableParallelism()} cores, ${load()}; uploading ${DESIGNS} designs (not timed)...`);
  const png = await printDesignPng(1500, 1800);
  const designIds: string[] = [];
  for (let i = 0; i < DESIGNS; i++) {
    const res = await client.request({
      method: 'POST',
      url: '/api/designs/upload',
      ...multipart([{ field: 'file', filename: `Design ${i + 1}.png`, content: png, contentType: 'image/png' }]),
    });
    if (res.statusCode !== 201) throw new Error(`upload answered ${res.statusCode} ${res.body}`);
    designIds.push(res.json().id);
  }
  await startWorker(app.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
  let peak = treePss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, treePss());
  }, 250);
  const started = performance.now();
  const res = await client.post('/api/bulk', {
    designIds,
    catalogProductIds: BLANKS,
    colors: COLORS,
    pricing: { markupPercent: 60 },
    status: 'draft',
  });
  if (res.statusCode !== 202) throw new Error(`bulk answered ${res.statusCode} ${res.body}`);
  const jobId = res.json<TBulkJob>().jobId;
  let job: TBulkJob;
  for (;;) {
    job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    if (job.status === 'done') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const [made] = await app.deps.db.select({ n: count() }).from(mockups).where(eq(mockups.workspaceId, workspaceId));
  const mb = peak / 1024 / 1024;
  const full = DESIGNS >= TARGET.designs;
  const whole = job.failures.length === 0 && (made?.n ?? 0) === DESIGNS * BLANKS.length * PER_BLANK;
  if (!whole) console.log('  (NOT every product and mockup was made: so the time does not answer the target)');
  console.log(
    `  ${DESIGNS} designs x ${BLANKS.length} blanks x ${PER_BLANK} colours: ${job.done} products (${job.failures.length} failed), ` +
      `${made?.n ?? 0} mockups in ${ms(elapsed)} (${ms(elapsed / Math.max(1, job.done))} a product)  [${load()}]`,
  );
  console.log(
    `  target (#32) 1,500 mockups and 300 products under 3 min -> ${full ? ms(elapsed) : `${ms((elapsed * TARGET.designs) / DESIGNS)} at this pace (${DESIGNS} designs run)`}: ` +
      `${verdict(whole && (elapsed * TARGET.designs) / Math.min(DESIGNS, TARGET.designs) < TARGET.ms)}; memory of the whole process tree under 1 GB -> ${mb.toFixed(0)} MB: ${verdict(mb < TARGET.mb)}`,
  );
  if (job.failures.length > 0) console.log(`  first failure: ${JSON.stringify(job.failures[0])}`);
} finally {
  await app.close();
}
