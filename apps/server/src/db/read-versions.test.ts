import { describe, expect, it } from 'vitest';
import { ReadCache } from '../lib/read-cache';
import { coalescedReads } from './read-versions';

/** A read whose answer the test gives: each call records the value current when it started. */
function controlledRead() {
  let current = 0;
  const started: { workspaceId: string; resolve: () => void }[] = [];
  const read = (workspaceId: string) =>
    new Promise<number>((resolve) => {
      const seen = current;
      started.push({ workspaceId, resolve: () => resolve(seen) });
    });
  return {
    read,
    started,
    write: () => {
      current += 1;
    },
    finishAll: async () => {
      for (const s of started.splice(0)) s.resolve();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

describe('coalescedReads', () => {
  it('makes callers who ask at once share reads: at most one running and one queued per workspace', async () => {
    const c = controlledRead();
    const versionOf = coalescedReads(c.read);
    const first = versionOf('ws-a');
    const waiting = Array.from({ length: 100 }, () => versionOf('ws-a'));
    const other = versionOf('ws-b');
    expect(c.started.map((s) => s.workspaceId)).toEqual(['ws-a', 'ws-b']);
    await c.finishAll();
    // The 100 who asked while the first read ran share one read that started after them.
    expect(c.started.map((s) => s.workspaceId)).toEqual(['ws-a']);
    await c.finishAll();
    expect(await first).toBe(0);
    expect(await other).toBe(0);
    expect(new Set(await Promise.all(waiting))).toEqual(new Set([0]));
  });

  it('never answers a caller from a read that started before it asked', async () => {
    const c = controlledRead();
    const versionOf = coalescedReads(c.read);
    const before = versionOf('ws');
    // A change commits while the first read is under way; a caller who saw it asks next.
    c.write();
    const after = versionOf('ws');
    await c.finishAll();
    await c.finishAll();
    expect(await before).toBe(0);
    expect(await after).toBe(1);
  });

  it('reads again after a failed read', async () => {
    let calls = 0;
    const versionOf = coalescedReads(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return 7;
    });
    await expect(versionOf('ws')).rejects.toThrow('connection lost');
    expect(await versionOf('ws')).toBe(7);
  });
});

describe('ReadCache', () => {
  it('answers every caller of a version up to the kept one with one read, and reads again for a newer one', async () => {
    const cache = new ReadCache<string>();
    let reads = 0;
    const load = async () => `answer ${++reads}`;
    const together = await Promise.all([cache.read('k', 3, load), cache.read('k', 3, load), cache.read('k', 2, load)]);
    expect(together).toEqual(['answer 1', 'answer 1', 'answer 1']);
    expect(await cache.read('k', 4, load)).toBe('answer 2');
    expect(await cache.read('k', 4, load)).toBe('answer 2');
    expect(await cache.read('other', 4, load)).toBe('answer 3');
  });

  it('keeps no failed read, and drops the oldest key beyond its size', async () => {
    const cache = new ReadCache<number>(2);
    await expect(cache.read('k', 1, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await cache.read('k', 1, async () => 1)).toBe(1);
    await cache.read('l', 1, async () => 2);
    await cache.read('m', 1, async () => 3);
    expect(await cache.read('k', 1, async () => 10)).toBe(10);
  });
});
