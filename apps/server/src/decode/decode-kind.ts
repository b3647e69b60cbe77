/**
 * A kind of work the decode pool runs, declared by the module that owns it (designs: 'design'; ai: 'analyze-image';
 * mockups: 'layer'; print-files: 'print-file'). The owner declares the kind here (its name, the memory a job
 * reserves, a preparation the child must have done first) and gives its handler to the worker entry
 * (`src/decode/decode-worker.ts`), which registers it with `decodeHandler`. The pool itself names no kind.
 */
export type DecodeKind<Job, Result> = {
  readonly name: string;
  /**
   * The memory a job declares it needs, in MB, which it reserves from the pool's budget while it runs (capped at one
   * job's limit, `capMb`). By default DEFAULT_RESERVE_MB.
   */
  readonly reserveMb?: (job: Job, capMb: number) => number;
  /**
   * A preparation (by name, registered in the worker entry) the child must have done before this job's clock starts,
   * e.g. loading the SVG sanitiser; null when none.
   */
  readonly prepare?: (job: Job) => string | null;
  /** Phantom: the job and result types, so `pool.run(kind, job)` is typed. Never set. */
  readonly __types?: { job: Job; result: Result };
};

// biome-ignore lint/suspicious/noExplicitAny: a list of kinds of any job and result
export type AnyDecodeKind = DecodeKind<any, any>;

export function defineDecodeKind<Job, Result>(spec: Omit<DecodeKind<Job, Result>, '__types'>): DecodeKind<Job, Result> {
  return spec;
}

/** What a decoder holds before its file: Node, sharp and libvips loaded (about 60 MB resident), with some room. */
export const CHILD_BASE_MB = 96;
/** A kind that declares no reservation: a mockup layer's (from a working copy of at most 2000 px). */
export const DEFAULT_RESERVE_MB = 128;
export const MB = 1024 * 1024;

/**
 * Thrown by a handler for a file it will not process (too large, hostile, unreadable): the pool answers 422 with
 * this message and keeps the child. Any other error is answered 422 too, naming the file, and the child is replaced.
 */
export class DecodeRefusal extends Error {
  override name = 'DecodeRefusal';
}

/** One kind's handler, as the worker entry registers it. */
export type DecodeHandler = { kind: string; run: (job: unknown) => Promise<unknown> };

export function decodeHandler<Job, Result>(
  kind: DecodeKind<Job, Result>,
  run: (job: Job) => Promise<Result>,
): DecodeHandler {
  return { kind: kind.name, run: run as (job: unknown) => Promise<unknown> };
}
