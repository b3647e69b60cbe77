/**
 * The decode worker's loop: a child process of the server (forked by decode-pool.ts) that runs one job at a time
 * with the handler its owner registered for the job's kind (the entry, `src/decode/decode-worker.ts`, lists them).
 * libvips gets no operation cache here, and the threads the pool gives each job (the cores shared among the jobs
 * running), so a child's memory is what its current file needs; the parent enforces the wall-clock and memory
 * limits by killing this process.
 */

import sharp from 'sharp';
import { type DecodeHandler, DecodeRefusal } from './decode-kind';

/** V8's collector, exposed by the pool's `--expose-gc`. */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * Serves the pool's messages: `{ id, kind, job, threads }` runs the kind's handler and answers `{ id, ok, result }`
 * (or a refusal, or an error); `{ prepare }` runs one of `preparations` (loaded outside any job's time limit).
 */
export function serveDecodeJobs(
  handlers: DecodeHandler[],
  preparations: Record<string, () => Promise<unknown>> = {},
): void {
  sharp.cache(false);
  sharp.concurrency(1);
  const byKind = new Map(handlers.map((h) => [h.kind, h.run]));

  process.on('message', (raw: unknown) => {
    const { prepare } = raw as { prepare?: string };
    if (prepare !== undefined) {
      const load = preparations[prepare];
      (load ? load() : Promise.reject(new Error(`no preparation '${prepare}'`))).then(
        () => process.send?.({ prepared: prepare, ok: true }),
        (error: unknown) => process.send?.({ prepared: prepare, ok: false, error: String(error) }),
      );
      return;
    }
    const { id, kind, job, threads } = raw as { id: number; kind: string; job: unknown; threads?: number };
    // One job at a time in this process: the pool says how many libvips threads it may use now.
    sharp.concurrency(Math.max(1, threads ?? 1));
    const run = byKind.get(kind);
    (run ? run(job) : Promise.reject(new Error(`no handler for the job kind '${kind}'`)))
      .then(
        (result) => process.send?.({ id, ok: true, result }),
        (error: unknown) => {
          if (error instanceof DecodeRefusal) process.send?.({ id, ok: false, refusal: error.message });
          else process.send?.({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
        },
      )
      // Once answered, the job's buffers (a print file's are hundreds of megabytes, held outside V8's heap) are
      // collected now rather than whenever V8 next collects: they would count against the next job's memory limit.
      .finally(() => setImmediate(() => collect?.()));
  });
  // The parent went away: nothing left to answer.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true });
}
