/**
 * Answers kept while the database has not changed: an entry read at version v is served while the database's
 * `readVersion()` is still v, and dropped as soon as it is not. Bounded (oldest out first). Only for the embedded
 * PGlite, whose folder one process owns, so that process sees every write (`Database.readVersion`).
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, { version: number; value: T }>();

  constructor(private readonly max = 500) {}

  get(key: string, version: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, version: number, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
