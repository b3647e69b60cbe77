import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client';
import { EtsyClient, type EtsyClientOptions } from '../src/integrations/etsy/client';
import { emptyEtsyState, type FakeEtsy, startFakeEtsy } from '../src/integrations/etsy/fake-server';
import { markBudgetSpent, reserveCallTurn } from '../src/modules/stores/call-budget.repository';
import { openTestDatabase } from './helpers';

/**
 * Etsy counts calls per app, whichever instance sends them: two clients (two instances of the server) on one
 * database take their turns in the shared budget, so together they stay under the per-second limit.
 */
describe('Etsy calls paced across instances', () => {
  let database: Database;
  let fake: FakeEtsy;
  const token = 'shared-budget-token';

  beforeAll(async () => {
    database = await openTestDatabase();
    const state = emptyEtsyState();
    state.tokens[token] = { user_id: 5001, expires_at: Date.now() + 3_600_000 };
    fake = await startFakeEtsy({ state, limits: { perSecond: 3, perDay: 10_000 } });
  });
  afterAll(async () => {
    await fake?.close();
    await database?.close();
  });

  const client = (budgetKey: string | null, extra: Partial<EtsyClientOptions> = {}) =>
    new EtsyClient({
      keystring: fake.keystring,
      sharedSecret: fake.sharedSecret,
      apiBase: fake.url,
      connectBase: fake.url,
      tokenBase: fake.url,
      perSecond: 3,
      maxRateLimitRetries: 0,
      ...(budgetKey
        ? {
            budget: {
              reserve: (perSecond, windowMs) => reserveCallTurn(database.db, budgetKey, perSecond, windowMs),
              spent: (seconds) => markBudgetSpent(database.db, budgetKey, seconds),
            },
          }
        : {}),
      ...extra,
    });

  /** Both instances push at once: each sends `n` calls, all started together. */
  const together = (a: EtsyClient, b: EtsyClient, n: number) =>
    Promise.allSettled([a, b].flatMap((c) => Array.from({ length: n }, () => c.request('GET', '/users/me', token))));

  it('two instances each pacing in its own memory together meet the limit (the case the shared budget is for)', async () => {
    const results = await together(client(null), client(null), 5);
    const limited = results.filter((r) => r.status === 'rejected' && (r.reason as { status?: number }).status === 429);
    expect(limited.length).toBeGreaterThan(0);
    // Let the fake's second pass before the next case.
    await new Promise((r) => setTimeout(r, 1100));
  });

  it('two instances sharing the budget in the database never get a 429', async () => {
    const before = fake.calls.length;
    // The budget is taken one under Etsy's limit here: a turn is reserved by the database's clock and the call then
    // travels, so on a loaded machine two calls reserved a window apart can reach Etsy closer together than that.
    const shared = () => client('etsy:two-instances', { perSecond: 2 });
    const results = await together(shared(), shared(), 5);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const calls = fake.calls.slice(before);
    expect(calls).toHaveLength(10);
    expect(calls.filter((c) => c.status === 429)).toEqual([]);
  });

  it('a day spent, as one instance heard it from Etsy, stops the other before it calls', async () => {
    const first = client('etsy:day', { maxWaitMs: 1000 });
    const second = client('etsy:day');
    fake.rateLimitNext(1, 3600);
    await expect(first.request('GET', '/users/me', token)).rejects.toMatchObject({ status: 429 });
    const before = fake.calls.length;
    await expect(second.request('GET', '/users/me', token)).rejects.toMatchObject({
      status: 429,
      message: expect.stringContaining('daily request budget'),
    });
    expect(fake.calls.length).toBe(before);
  });

  it('the budget survives a restart: its turns are rows, not memory', async () => {
    await reserveCallTurn(database.db, 'etsy:restart', 2, 1050);
    await reserveCallTurn(database.db, 'etsy:restart', 2, 1050);
    // A new process (nothing in memory) asking now waits for the window of the turns already given.
    const turn = await reserveCallTurn(database.db, 'etsy:restart', 2, 1050);
    expect(turn).toMatchObject({ waitMs: expect.any(Number) });
    expect((turn as { waitMs: number }).waitMs).toBeGreaterThan(900);
  });
});
