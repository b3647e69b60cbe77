import type { FastifyReply } from 'fastify';

/**
 * Answers kept while the database has not changed: an entry read at version v answers any caller that read a
 * version up to v (`Database.readVersionOf`), since what it holds was read after v was; a caller that read a newer
 * version reads again. Callers of one key and version share one read (a hundred callers at once make one query).
 * Bounded (oldest out first); a failed read is not kept.
 *
 * Correct across instances: the version is read (on PostgreSQL, from `workspace_read_versions`, moved on by every
 * commit that changes what the answers show) after the caller arrived and before its answer is read.
 */
export class ReadCache<T> {
  private readonly entries = new Map<string, { version: number; value: Promise<T> }>();

  constructor(private readonly max = 500) {}

  read(key: string, version: number, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version >= version) return hit.value;
    const value = load();
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

const serialized = new WeakMap<object, string>();

/**
 * A kept answer's JSON, made once per answer object: the callers a kept answer serves get the same text instead of
 * each serialising it again. The answer must not change after it is first sent (kept answers never do).
 */
export function sendJsonOnce(reply: FastifyReply, value: object): FastifyReply {
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialized.set(value, json);
  }
  return reply.type('application/json; charset=utf-8').send(json);
}
