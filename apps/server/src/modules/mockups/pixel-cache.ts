/**
 * Decoded pixels by key, most recent first, up to `maxBytes` of pixels; a value is never changed once made (readers
 * only read it), so callers share it, and a failed one is forgotten at once. The mockup service keeps two: placed
 * design layers (resized and turned, by design file, size and turn: the same placement again, another colour asked
 * for alone, a batch generated again, the design only moved or faded, places nothing again) and decoded working
 * copies (by stored file: a new size or turn of the same design skips the decode).
 */
export class PixelCache<T extends { data: { length: number } } | null> {
  private readonly entries = new Map<string, { job: Promise<T>; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get(key: string, make: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.job;
    }
    const entry = { job: make(), bytes: 0 };
    this.entries.set(key, entry);
    entry.job.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = value?.data.length ?? 0;
        this.bytes += entry.bytes;
        for (const [oldKey, old] of this.entries) {
          if (this.bytes <= this.maxBytes) break;
          this.entries.delete(oldKey);
          this.bytes -= old.bytes;
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.job;
  }

  get size(): number {
    return this.entries.size;
  }
}
