import type { DesignLayer } from './mockup-render';

/**
 * Prepared design layers (decoded, resized, rotated and clipped), by design file and placement, most recent first,
 * up to `maxBytes` of pixels: rendering the same design and placement again (another colour asked for alone, a batch
 * generated again, another view of the same set) skips the decode pool. A layer is never changed once made (the
 * blend only reads it), so renders share it; a failed one is forgotten at once.
 */
export class LayerCache {
  private readonly entries = new Map<string, { job: Promise<DesignLayer | null>; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get(key: string, make: () => Promise<DesignLayer | null>): Promise<DesignLayer | null> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.job;
    }
    const entry = { job: make(), bytes: 0 };
    this.entries.set(key, entry);
    entry.job.then(
      (layer) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = layer?.data.length ?? 0;
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
