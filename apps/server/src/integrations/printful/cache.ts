/** A small in-memory TTL cache for catalogue answers (the catalogue changes rarely; Printful's limit is tight). */
export class TtlCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 2000,
  ) {}

  /** The cached value, or `load()`'s; concurrent callers of one key share a single load. */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value as T;
    const inFlight = this.pending.get(key);
    if (inFlight) return inFlight as Promise<T>;
    const promise = load()
      .then((value) => {
        if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
        this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
        return value;
      })
      .finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }

  clear() {
    this.entries.clear();
  }
}
