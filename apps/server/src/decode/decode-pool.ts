import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { unprocessable } from '../lib/errors';
import { type AnyDecodeKind, DEFAULT_RESERVE_MB, type DecodeKind } from './decode-kind';

/**
 * The decode pool: every decode of a user file (rasterising, resizing) and every drawing from a stored design's full
 * print PNG runs here, never on the request's event loop: in child
 * processes (`decode-worker.ts`), at most `concurrency` at once per instance; further work waits in order. Each job
 * has a wall-clock limit and a memory limit (the child's resident memory, read from /proc every 50 ms, plus a V8
 * heap cap); a job that passes either, or a child that dies, is answered 422 naming the limit, and its child is
 * killed and replaced by a fresh one for the next job. A job whose request is abandoned (its AbortSignal) leaves the
 * queue, or its child is killed mid-decode.
 *
 * The pool's memory as a whole is bounded too (`poolMemoryMb`, DECODE_POOL_MEMORY_MB), not per child times children:
 * each job reserves what it declares it needs (`memoryReservationMb`: from the decoded size its header gives, else a
 * fixed share per kind) and starts only when the running jobs' reservations leave room for it (or nothing runs), in
 * order; and while jobs run, the resident memory of the children decoding is read together, and past the budget the
 * running job holding the most is refused (422) and its child killed. Idle children (the started spare, a slot's
 * child between files) hold a decoder's own memory on top (about 50 MB each, 150 MB with the SVG sanitiser loaded,
 * about 75 MB more once the PDF renderer has loaded and drawn a page).
 */

export type DecodePoolOptions = {
  concurrency: number;
  timeLimitMs: number;
  memoryLimitMb: number;
  /** The children decoding at once, together; by default `memoryLimitMb` (one job's limit). */
  poolMemoryMb?: number;
  /** Cores shared among the jobs running at once (libvips threads per job); by default the machine's. */
  cores?: number;
  /** The worker entry to fork; by default decode-worker next to this module (TypeScript through tsx in development). */
  entry?: { file: string; execArgv: string[] };
  /**
   * Preparations (registered in the worker entry) that a listening server's first child does once the pool is idle
   * (`warmUp`), e.g. the designs module's SVG sanitiser and PDF renderer: a first such file then seldom waits.
   */
  preloadWhenIdle?: string[];
};

export type QueueStatus = { state: 'waiting' | 'processing'; position: number; waiting: number };

type Task = {
  id: number;
  label: string;
  /** This job's wall-clock limit. */
  timeLimitMs: number;
  /** Memory this job holds of the pool's budget while it runs (MB). */
  reserveMb: number;
  ticket: string | null;
  /** The kind and job to send to a child; null for an in-process lease. */
  work: { kind: AnyDecodeKind; job: unknown } | null;
  /** Work nobody waits for (a mockup's full-size file): every other job waiting starts before it. */
  background: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  /** Set while a child decodes it: kills the child and answers the abandon. */
  stop: (() => void) | null;
  slot: Slot | null;
};

type Slot = { index: number; child: ChildProcess | null; ready: Promise<void> | null; task: Task | null };

type WorkerAnswer =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; refusal?: string; error?: string };

const here = fileURLToPath(import.meta.url);

const MB = 1024 * 1024;
/** The decoders' scheduling niceness: below the server's, so a full pool does not delay its answers. */
const DECODER_NICE = 10;

/**
 * The memory a job reserves from the pool's budget, in MB: what its kind declares (`reserveMb`, else
 * DEFAULT_RESERVE_MB), never more than `capMb` (one job's limit). In-process leases reserve nothing.
 */
export function memoryReservationMb<J>(kind: DecodeKind<J, unknown> | null, job: J, capMb: number): number {
  if (kind === null) return 0;
  const need = kind.reserveMb ? kind.reserveMb(job, capMb) : DEFAULT_RESERVE_MB;
  return Math.min(capMb, Math.ceil(need));
}

/** How long the pool must have had nothing to do before a started child loads the SVG sanitiser. */
const PRELOAD_IDLE_MS = 2000;

/**
 * The environment for a child, with glibc's malloc asked to back its large allocations with transparent huge pages
 * (`glibc.malloc.hugetlb=1`, glibc 2.35 and later; ignored elsewhere, and where the kernel's THP setting is `never`).
 * A decode's buffers are tens of megabytes, each new to the process: faulting them in 4 KB pages was most of a PNG
 * decode's CPU on a virtual machine (a 4500x5400 design: 488 ms of CPU, 269 ms with huge pages), and half the turn's.
 * A setting the operator gave in GLIBC_TUNABLES is kept.
 */
export function withHugePages(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (tunables.includes('glibc.malloc.hugetlb=')) return env;
  return { ...env, GLIBC_TUNABLES: tunables ? `${tunables}:glibc.malloc.hugetlb=1` : 'glibc.malloc.hugetlb=1' };
}

function defaultEntry(): { file: string; execArgv: string[] } {
  const dir = path.dirname(here);
  // Built, this module is bundled into dist/main.js, beside the worker entry's bundle (tsup.config.ts).
  const built = path.join(dir, 'decode-worker.js');
  if (!here.endsWith('.ts') && fs.existsSync(built)) return { file: built, execArgv: [] };
  // Running from the TypeScript sources (tests, `npm run dev`): the child loads them through tsx too.
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { file: path.join(dir, 'decode-worker.ts'), execArgv: ['--import', tsx] };
}

/** Resident memory of a process in bytes, from /proc (Linux); null where there is none. */
function residentBytes(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** What a job still waiting (or asked for) when the pool closes is answered. */
export class PoolClosedError extends Error {
  override name = 'PoolClosedError';
  constructor() {
    super('the server is closing');
  }
}

export class DecodePool extends EventEmitter {
  private readonly slots: Slot[];
  private readonly waiting: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** One started child kept idle to take a killed child's place. */
  private spare: { child: ChildProcess; ready: Promise<void> } | null = null;
  /** Per child, the preparations it has done (or is doing), see prepare. */
  private readonly prepared = new WeakMap<ChildProcess, Map<string, Promise<void>>>();
  /** A listening server's first child does `preloadWhenIdle` when the pool is idle (warmUp). */
  private preloadIdle = false;
  /** When a job last started or finished (ms since the epoch). */
  private lastBusyAt = 0;
  /**
   * What tests and the hostile run read: jobs run, refusals at a limit, children killed (at a limit or on abandon)
   * and started, and preparations asked of children (e.g. loading the SVG sanitiser).
   */
  readonly stats = {
    jobs: 0,
    refusedAtLimit: 0,
    killed: 0,
    spawned: 0,
    preparations: 0,
    /** Jobs refused because the children together passed the pool's budget. */
    refusedAtPoolLimit: 0,
    /** The most the running jobs reserved at once, and the most the children held together (MB, resident). */
    peakReservedMb: 0,
    peakChildrenMb: 0,
  };
  /** The decoding children's memory together (MB), and what one job may use: the smaller of its limit and the pool's. */
  private readonly poolMemoryMb: number;
  private readonly jobMemoryMb: number;

  constructor(private readonly options: DecodePoolOptions) {
    super();
    const concurrency = Math.max(1, Math.floor(options.concurrency));
    this.slots = Array.from({ length: concurrency }, (_, index) => ({ index, child: null, ready: null, task: null }));
    this.poolMemoryMb = Math.max(64, Math.floor(options.poolMemoryMb ?? options.memoryLimitMb));
    this.jobMemoryMb = Math.min(options.memoryLimitMb, this.poolMemoryMb);
  }

  /** The pool's memory budget (MB) and what the running jobs reserve of it now. */
  get memory(): { budgetMb: number; reservedMb: number } {
    return { budgetMb: this.poolMemoryMb, reservedMb: this.reservedMb() };
  }

  private reservedMb(): number {
    return this.slots.reduce((sum, s) => sum + (s.task?.reserveMb ?? 0), 0);
  }

  /** Resident memory of each child decoding now, in bytes. */
  private childrenResident(): Map<ChildProcess, number> {
    const all = new Map<ChildProcess, number>();
    for (const { task, child } of this.slots) {
      if (!task || !child?.pid || child.exitCode !== null || child.signalCode !== null) continue;
      all.set(child, residentBytes(child.pid) ?? 0);
    }
    return all;
  }

  get concurrency(): number {
    return this.slots.length;
  }

  /** Jobs decoding now, and jobs waiting. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.filter((s) => s.task).length, waiting: this.waiting.length };
  }

  /**
   * Runs one job of an owner's kind in a child; `label` names the file in limit refusals; `ticket` lets the browser
   * ask for its place; `timeLimitMs` replaces the pool's wall-clock limit for this job (work on stored, already
   * checked designs).
   */
  run<J, R>(
    kind: DecodeKind<J, R>,
    job: J,
    options: {
      label: string;
      signal?: AbortSignal | undefined;
      ticket?: string | null;
      timeLimitMs?: number;
      /**
       * Work no request waits for: it waits behind every job that is not (in order among its own), runs one at a
       * time, and only while a slot stays free for the next job someone waits for.
       */
      background?: boolean;
    },
  ): Promise<R> {
    return this.enqueue({ kind, job }, options) as Promise<R>;
  }

  /**
   * Takes a slot for work done in this process (e.g. the mockup renderer's sharp pipelines on stored, already
   * checked designs), so it counts against the same concurrency; resolves to the function that gives it back.
   */
  lease(options: { label: string; signal?: AbortSignal | undefined; ticket?: string | null }): Promise<() => void> {
    return this.enqueue(null, options) as Promise<() => void>;
  }

  /**
   * Someone now waits for `ticket`'s background jobs still waiting (a read of a mockup file being drawn): they move
   * ahead of the background ones, behind the other jobs waiting.
   */
  promote(ticket: string): void {
    const promoted = this.waiting.filter((t) => t.ticket === ticket && t.background);
    if (promoted.length === 0) return;
    for (const task of promoted) {
      this.waiting.splice(this.waiting.indexOf(task), 1);
      task.background = false;
      this.queue(task);
    }
    this.pump();
  }

  /** Puts a task in the queue: a job someone waits for ahead of every background one (after those like it). */
  private queue(task: Task): void {
    const firstBackground = task.background ? -1 : this.waiting.findIndex((t) => t.background);
    if (firstBackground < 0) this.waiting.push(task);
    else this.waiting.splice(firstBackground, 0, task);
  }

  /** Where `ticket`'s first unfinished job is: decoding (position 0) or waiting (1 = next), or null when none. */
  position(ticket: string): QueueStatus | null {
    if (this.slots.some((s) => s.task?.ticket === ticket)) {
      return { state: 'processing', position: 0, waiting: this.waiting.length };
    }
    const index = this.waiting.findIndex((t) => t.ticket === ticket);
    if (index < 0) return null;
    return { state: 'waiting', position: index + 1, waiting: this.waiting.length };
  }

  /**
   * Starts the first decoder and the spare ahead of any upload (a listening server calls it), so the first files
   * do not wait for a child to start; the other slots start theirs when first needed, taking the spare. From then
   * on the first slot's child (which every lone file goes to) does `preloadWhenIdle` once the pool has been idle a
   * moment (`prepareWhenIdle`), so a file that needs it seldom waits; any other child does it for its first such job.
   */
  warmUp(): void {
    this.preloadIdle = (this.options.preloadWhenIdle ?? []).length > 0;
    const first = this.slots[0];
    if (!this.closed && first && !first.child) this.spawn(first);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0)) task.reject(new PoolClosedError());
    for (const slot of this.slots) this.kill(slot);
    this.spare?.child.kill('SIGKILL');
    this.spare = null;
  }

  private enqueue(
    work: { kind: AnyDecodeKind; job: unknown } | null,
    options: {
      label: string;
      signal?: AbortSignal | undefined;
      ticket?: string | null;
      timeLimitMs?: number;
      background?: boolean;
    },
  ): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.closed) return Promise.reject(new PoolClosedError());
    return new Promise((resolve, reject) => {
      const task: Task = {
        id: this.nextId++,
        label: options.label,
        ticket: options.ticket ?? null,
        timeLimitMs: options.timeLimitMs ?? this.options.timeLimitMs,
        reserveMb: work ? memoryReservationMb(work.kind, work.job, this.jobMemoryMb) : 0,
        work,
        background: options.background === true,
        resolve,
        reject,
        signal,
        onAbort: () => this.abandon(task),
        stop: null,
        slot: null,
      };
      signal?.addEventListener('abort', task.onAbort, { once: true });
      this.queue(task);
      this.emit('queued', { label: task.label, ticket: task.ticket, waiting: this.waiting.length });
      this.pump();
    });
  }

  private pump() {
    for (const slot of this.slots) {
      if (slot.task) continue;
      const head = this.waiting[0];
      if (!head) return;
      // Background work (every job ahead of it in the queue is background too) runs one at a time, and only when
      // it leaves a slot free for the next job someone waits for (on a one-slot pool, only when the pool is idle).
      if (head.background) {
        const busy = this.slots.filter((s) => s.task).length;
        if (this.slots.some((s) => s.task?.background) || busy + 1 >= Math.max(2, this.slots.length)) return;
      }
      // In order: the next job waits until the running ones' reservations leave room for its own (a lone job runs).
      const reserved = this.reservedMb();
      const running = this.slots.some((s) => s.task);
      if (running && reserved + head.reserveMb > this.poolMemoryMb) return;
      const task = this.waiting.shift() as Task;
      this.stats.peakReservedMb = Math.max(this.stats.peakReservedMb, reserved + task.reserveMb);
      slot.task = task;
      task.slot = slot;
      this.lastBusyAt = Date.now();
      this.emit('started', { label: task.label, ticket: task.ticket, slot: slot.index });
      if (task.work === null) {
        let given = false;
        this.settle(
          task,
          () =>
            task.resolve(() => {
              if (given) return;
              given = true;
              this.free(slot, task);
            }),
          false,
        );
      } else {
        void this.dispatch(slot, task);
      }
    }
  }

  /** Ends a task's link to its signal; `free` also gives its slot back. */
  private settle(task: Task, answer: () => void, free = true) {
    task.signal?.removeEventListener('abort', task.onAbort);
    if (free && task.slot) this.free(task.slot, task);
    answer();
  }

  private free(slot: Slot, task: Task) {
    if (slot.task !== task) return;
    this.lastBusyAt = Date.now();
    slot.task = null;
    task.slot = null;
    this.emit('settled', { label: task.label, ticket: task.ticket });
    this.pump();
  }

  /** Starts a child; `ready` resolves once it has loaded and said so. */
  private startChild(): { child: ChildProcess; ready: Promise<void> } {
    const entry = this.options.entry ?? defaultEntry();
    const heapMb = Math.max(64, Math.floor(this.options.memoryLimitMb / 2));
    const child = fork(entry.file, [], {
      // --expose-gc: the worker collects after each job (decode-worker.ts).
      execArgv: [...entry.execArgv, `--max-old-space-size=${heapMb}`, '--expose-gc'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: withHugePages(process.env),
    });
    this.stats.spawned += 1;
    // Decoding is batch work: the server's own event loop (every other request, the health probe) goes first.
    if (child.pid) {
      try {
        os.setPriority(child.pid, DECODER_NICE);
      } catch {
        // Not allowed here (a container without the right): the decoder runs at the server's priority.
      }
    }
    const ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if ((message as { ready?: boolean })?.ready) {
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null, signal: string | null) =>
        reject(new Error(`the decoder did not start (${signal ?? code})`));
      child.once('message', onMessage);
      child.once('exit', onExit);
    });
    ready.catch(() => {});
    child.once('exit', () => {
      if (this.spare?.child === child) this.spare = null;
      for (const slot of this.slots) {
        if (slot.child === child) {
          slot.child = null;
          slot.ready = null;
        }
      }
    });
    return { child, ready };
  }

  /**
   * Has a listening server's started child do `preloadWhenIdle` once no job has run for PRELOAD_IDLE_MS: loading
   * the SVG sanitiser holds that child's event loop (and a core) for about a second, so done at once after a start it
   * held up the first upload by seconds. A child that takes a job needing it before then does it for that job.
   */
  private prepareWhenIdle(child: ChildProcess, names: string[]) {
    const attempt = () => {
      if (this.closed || child.exitCode !== null || child.signalCode !== null) return;
      const quiet = Date.now() - this.lastBusyAt >= PRELOAD_IDLE_MS && this.slots.every((s) => !s.task);
      const [name, ...rest] = names;
      if (!name) return;
      // One at a time, each when the pool is quiet again: a file sent meanwhile waits for one load, not all.
      if (quiet) {
        this.prepare(child, name).then(
          () => rest.length > 0 && this.prepareWhenIdle(child, rest),
          () => {},
        );
      } else setTimeout(attempt, PRELOAD_IDLE_MS).unref();
    };
    setTimeout(attempt, PRELOAD_IDLE_MS).unref();
  }

  /**
   * Has a started child do a preparation its worker entry registered (the SVG sanitiser: jsdom, about a second of
   * CPU), once; resolves when it has. Done before the job's clock starts, so it never counts against that file's
   * time limit; a child that never gets a job needing it (tests, a server that has not called warmUp) never does it.
   */
  private prepare(child: ChildProcess, name: string): Promise<void> {
    let done = this.prepared.get(child);
    if (!done) {
      done = new Map();
      this.prepared.set(child, done);
    }
    let ready = done.get(name);
    if (!ready) {
      ready = new Promise<void>((resolve, reject) => {
        const onMessage = (message: unknown) => {
          const { prepared, ok, error } = (message ?? {}) as { prepared?: string; ok?: boolean; error?: string };
          if (prepared !== name) return;
          child.off('message', onMessage);
          child.off('exit', onExit);
          if (ok) resolve();
          else reject(new Error(`the decoder could not prepare '${name}' (${error})`));
        };
        const onExit = (code: number | null, signal: string | null) => {
          child.off('message', onMessage);
          reject(new Error(`the decoder stopped (${signal ?? `exit ${code}`})`));
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        this.stats.preparations += 1;
        child.send({ prepare: name });
      });
      ready.catch(() => {});
      done.set(name, ready);
    }
    return ready;
  }

  /**
   * Gives a slot a child: the spare one when there is one (already started, so a file after a killed one does not
   * wait for a start), and starts the next spare.
   */
  private spawn(slot: Slot) {
    const proc = this.spare ?? this.startChild();
    this.spare = null;
    slot.child = proc.child;
    slot.ready = proc.ready;
    // A lone file always goes to the first slot: only its child prepares ahead (the SVG sanitiser's jsdom holds
    // about 100 MB in each process that loads it), so the spare and the other slots' children stay small until a
    // job that needs it reaches them.
    const preload = this.options.preloadWhenIdle;
    if (this.preloadIdle && preload && preload.length > 0 && slot.index === 0) {
      const { child } = proc;
      proc.ready.then(() => this.prepareWhenIdle(child, preload)).catch(() => {});
    }
    if (!this.closed) this.spare = this.startChild();
  }

  private kill(slot: Slot) {
    const child = slot.child;
    slot.child = null;
    slot.ready = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      this.stats.killed += 1;
    }
  }

  /** A killed child's slot gets a fresh one at once (the spare), so the next file does not wait for a start. */
  private replace(slot: Slot) {
    this.kill(slot);
    if (!this.closed) this.spawn(slot);
  }

  private async dispatch(slot: Slot, task: Task) {
    if (!slot.child) this.spawn(slot);
    const child = slot.child as ChildProcess;
    try {
      await slot.ready;
      const needs = task.work?.kind.prepare?.(task.work.job) ?? null;
      if (needs !== null) await this.prepare(child, needs);
    } catch (error) {
      // Abandoned while its child started: the slot has moved on (and may have a new child), leave it be.
      if (slot.task !== task) return;
      if (slot.child === child) this.kill(slot);
      this.settle(task, () => task.reject(unprocessable(`${task.label} could not be processed: ${String(error)}`)));
      return;
    }
    if (slot.task !== task || slot.child !== child) return; // abandoned while the child started
    this.stats.jobs += 1;
    const limitMb = this.jobMemoryMb;
    let done = false;
    const finish = (answer: () => void, killChild: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(memory);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (killChild) this.replace(slot);
      this.settle(task, answer);
    };
    const refuse = (message: string) => {
      this.stats.refusedAtLimit += 1;
      finish(() => task.reject(unprocessable(message)), true);
    };
    const timer = setTimeout(() => {
      const seconds = Math.round(task.timeLimitMs / 100) / 10;
      refuse(`${task.label} took longer than ${seconds} s to process; the limit is ${seconds} s`);
    }, task.timeLimitMs);
    const memory = setInterval(() => {
      const all = this.childrenResident();
      const rss = all.get(child) ?? null;
      if (rss !== null && rss > limitMb * MB) {
        refuse(`${task.label} needs more than ${limitMb} MB of memory to process; the limit is ${limitMb} MB`);
        return;
      }
      let total = 0;
      for (const bytes of all.values()) total += bytes;
      this.stats.peakChildrenMb = Math.max(this.stats.peakChildrenMb, Math.round(total / MB));
      if (total <= this.poolMemoryMb * MB || rss === null) return;
      // Over the pool's budget: the running job holding the most gives way (ties: the later one).
      const holdsMost = this.slots.every((s) => {
        if (!s.task || !s.child || s.child === child) return true;
        const other = all.get(s.child) ?? 0;
        return other < rss || (other === rss && s.task.id < task.id);
      });
      if (holdsMost) {
        this.stats.refusedAtPoolLimit += 1;
        refuse(
          `${task.label} needs more memory than the decoders may use together (${this.poolMemoryMb} MB, with the other files decoding now); the limit is ${this.poolMemoryMb} MB`,
        );
      }
    }, 50);
    const onMessage = (raw: unknown) => {
      const message = raw as WorkerAnswer;
      if (message?.id !== task.id) return;
      if (message.ok) finish(() => task.resolve(message.result), false);
      else if (message.refusal) finish(() => task.reject(unprocessable(message.refusal as string)), false);
      else finish(() => task.reject(unprocessable(`${task.label} could not be processed: ${message.error}`)), true);
    };
    const onExit = (code: number | null, signal: string | null) => {
      this.stats.refusedAtLimit += 1;
      finish(
        () =>
          task.reject(
            unprocessable(
              `${task.label} could not be processed: the decoder stopped (${signal ?? `exit ${code}`}), most likely at the ${limitMb} MB memory limit`,
            ),
          ),
        true,
      );
    };
    // Abandoned mid-decode: the child is killed (and replaced for the next job), so the work stops now.
    task.stop = () => finish(() => task.reject(task.signal?.reason), true);
    child.on('message', onMessage);
    child.once('exit', onExit);
    // libvips threads for this job: the machine's cores shared among the jobs decoding now (a lone upload or print
    // file uses every core; a full pool one each).
    const running = this.slots.filter((s) => s.task).length;
    const threads = Math.max(1, Math.floor((this.options.cores ?? os.availableParallelism()) / Math.max(1, running)));
    child.send({ id: task.id, kind: task.work?.kind.name, job: task.work?.job, threads });
  }

  /** A waiting task leaves the queue; a running one is stopped by its own handler set in dispatch. */
  private abandon(task: Task) {
    const index = this.waiting.indexOf(task);
    if (index >= 0) {
      this.waiting.splice(index, 1);
      task.reject(task.signal?.reason);
      this.emit('abandoned', { label: task.label, ticket: task.ticket });
      return;
    }
    if (task.stop) task.stop();
    else if (task.slot) {
      // Still starting its child (dispatch has not sent the job yet): replace the child, give the slot back.
      this.replace(task.slot);
      this.settle(task, () => task.reject(task.signal?.reason));
    }
    this.emit('abandoned', { label: task.label, ticket: task.ticket });
  }
}
