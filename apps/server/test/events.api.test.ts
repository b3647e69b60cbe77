import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await t.close();
});

/** Opens the event stream as the browser does and collects the events' names as they arrive. */
async function openStream(cookie: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/events`, { headers: { cookie }, signal: controller.signal });
  const events: string[] = [];
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = block.split('\n').find((l) => l.startsWith('event: '));
          if (name) events.push(name.slice('event: '.length));
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    events,
    async until(name: string, count: number, timeoutMs = 5_000) {
      const start = Date.now();
      while (events.filter((e) => e === name).length < count) {
        if (Date.now() - start > timeoutMs) throw new Error(`no ${name} event within ${timeoutMs} ms: ${events}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}

async function addProduct(workspaceId: string, title: string) {
  await t.deps.db.insert(products).values({ workspaceId, title, productType: 'tshirt' });
}

describe('GET /api/events', () => {
  it("tells an open screen within a couple of seconds that its workspace's data changed, and only its own", async () => {
    const seller = t.client();
    const other = t.client();
    const sellerWs = await seller.workspaceId(t.deps.db);
    const otherWs = await other.workspaceId(t.deps.db);
    const mine = await openStream(seller.cookie ?? '');
    const theirs = await openStream(other.cookie ?? '');
    try {
      expect(mine.response.status).toBe(200);
      expect(mine.response.headers.get('content-type')).toContain('text/event-stream');
      await mine.until('ready', 1);
      await theirs.until('ready', 1);
      // Let the first read take each workspace's starting version.
      await new Promise((r) => setTimeout(r, 1_200));
      const wrote = Date.now();
      // A write by anything (a job, another instance) moves the version at commit.
      await addProduct(sellerWs, 'Written by a job');
      await mine.until('changed', 1, 4_000);
      expect(Date.now() - wrote).toBeLessThan(3_000);
      await new Promise((r) => setTimeout(r, 1_200));
      expect(theirs.events.filter((e) => e === 'changed')).toHaveLength(0);
      await addProduct(otherWs, 'Theirs');
      await theirs.until('changed', 1, 4_000);
      expect(mine.events.filter((e) => e === 'changed')).toHaveLength(1);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('answers 429 naming the limit when one workspace holds too many streams', async () => {
    const seller = t.client();
    await seller.workspaceId(t.deps.db);
    const streams = [];
    try {
      for (let i = 0; i < 20; i += 1) streams.push(await openStream(seller.cookie ?? ''));
      const extra = await fetch(`${base}/api/events`, { headers: { cookie: seller.cookie ?? '' } });
      expect(extra.status).toBe(429);
      expect((await extra.json()).error).toMatch(/At most 20 windows/);
    } finally {
      for (const s of streams) await s.close();
    }
  });
});
