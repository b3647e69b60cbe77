/**
 * A store for @fastify/rate-limit whose counters are shared by every route it limits. The plugin gives each route a
 * child store of its own (so `groupId` alone still counted per route); here `child` is the store itself, so the AI
 * routes of a workspace spend one budget. Counters live in this instance's memory, like the plugin's own store.
 */
type Counter = { current: number; startMs: number };
type Callback = (error: Error | null, result: { current: number; ttl: number }) => void;

const MAX_KEYS = 10_000;

export class OneCounterStore {
  private readonly counters = new Map<string, Counter>();

  incr(key: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    let counter = this.counters.get(key);
    if (!counter || counter.startMs + timeWindow <= now) {
      counter = { current: 0, startMs: now };
      this.forgetExpired(now, timeWindow);
    }
    counter.current += 1;
    this.counters.set(key, counter);
    callback(null, { current: counter.current, ttl: counter.startMs + timeWindow - now });
  }

  read(key: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    const counter = this.counters.get(key);
    if (!counter || counter.startMs + timeWindow <= now) callback(null, { current: 0, ttl: timeWindow });
    else callback(null, { current: counter.current, ttl: counter.startMs + timeWindow - now });
  }

  child(): this {
    return this;
  }

  private forgetExpired(now: number, timeWindow: number) {
    if (this.counters.size < MAX_KEYS) return;
    for (const [key, counter] of this.counters) if (counter.startMs + timeWindow <= now) this.counters.delete(key);
  }
}
