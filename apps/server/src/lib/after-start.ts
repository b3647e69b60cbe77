/**
 * Work a listening server starts by itself (job workers, decoder processes, drawing mockup templates) waits until
 * the server has sent its first answer, or `graceMs` after it started listening, whichever comes first: on a small
 * machine that work would otherwise compete with the first page and its API calls for the CPU (and, on PGlite, for
 * the database's one connection). Nothing of it is needed to answer a request: each part also starts on first use.
 */
export class AfterStart {
  private tasks: (() => void)[] = [];
  private listening = false;
  private released = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly graceMs = 3000) {}

  /** Runs `task` once the server is settled (at once when it already is). */
  run(task: () => void): void {
    if (this.released) task();
    else this.tasks.push(task);
  }

  /** The server listens: the grace period starts. */
  onListen(): void {
    if (this.listening || this.released) return;
    this.listening = true;
    this.timer = setTimeout(() => this.release(), this.graceMs);
    this.timer.unref();
  }

  /** A response was sent: a listening server has answered its first request. */
  onResponse(): void {
    if (this.listening) this.release();
  }

  /** Drops what has not started (the server is closing). */
  cancel(): void {
    this.released = true;
    this.tasks = [];
    if (this.timer) clearTimeout(this.timer);
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    if (this.timer) clearTimeout(this.timer);
    const tasks = this.tasks;
    this.tasks = [];
    // After the answer is on its way, not inside the hook that reported it.
    setImmediate(() => {
      for (const task of tasks) task();
    });
  }
}
