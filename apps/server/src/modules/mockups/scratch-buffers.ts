/**
 * Large scratch buffers lent out and given back, so rendering mockups does not allocate tens of megabytes per render:
 * each fresh 15 MB Buffer is memory outside V8's heap, and V8 answers such growth with a full garbage collection,
 * which came to one per render and a good part of its time. Kept up to `maxBytes`, dropped after `idleMs` unused.
 */
export class ScratchBuffers {
  private free: Buffer[] = [];
  private pooled = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly maxBytes = 48 * 1024 * 1024,
    private readonly idleMs = 10_000,
  ) {}

  /** A buffer of exactly `bytes` bytes (a view on a pooled one when one is large enough); contents undefined. */
  take(bytes: number): Buffer {
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const candidate = this.free[i] as Buffer;
      if (candidate.length >= bytes && (best < 0 || candidate.length < (this.free[best] as Buffer).length)) best = i;
    }
    if (best >= 0) {
      const [buffer] = this.free.splice(best, 1) as [Buffer];
      this.pooled -= buffer.length;
      return buffer.subarray(0, bytes);
    }
    // Rounded up to a megabyte, so a slightly larger request later can reuse it.
    const size = Math.ceil(bytes / (1024 * 1024)) * 1024 * 1024;
    return Buffer.allocUnsafeSlow(size).subarray(0, bytes);
  }

  /** Gives back a buffer from `take` once nothing reads or writes it any more. */
  give(view: Buffer): void {
    const whole = Buffer.from(view.buffer, 0, view.buffer.byteLength);
    if (this.pooled + whole.length > this.maxBytes) return;
    this.free.push(whole);
    this.pooled += whole.length;
    if (this.timer) this.timer.refresh();
    else {
      this.timer = setTimeout(() => {
        this.free = [];
        this.pooled = 0;
        this.timer = null;
      }, this.idleMs);
      this.timer.unref();
    }
  }
}

/** The renderer's pool (one per process). */
export const scratch = new ScratchBuffers();
