import { describe, expect, it } from 'vitest';
import { PrintfulClient, printfulErrorMessage, RateLimiter } from './client';

describe('RateLimiter', () => {
  it('lets a burst of 120 through, then paces one call every 500 ms', async () => {
    let now = 0;
    const waits: number[] = [];
    const limiter = new RateLimiter(
      120,
      60_000,
      () => now,
      async (ms) => {
        waits.push(ms);
        now += ms;
      },
    );
    for (let i = 0; i < 120; i++) await limiter.take();
    expect(now).toBe(0);
    for (let i = 0; i < 10; i++) await limiter.take();
    // 130 calls never exceed 120 in any 60 s: the extra 10 took 5 s.
    expect(now).toBe(5000);
    expect(waits.every((w) => w === 500)).toBe(true);
  });
});

describe('PrintfulClient.get', () => {
  it('honours an empty X-Ratelimit-Remaining before the next call', async () => {
    let now = 0;
    const responses = [
      new Response('{"data":[]}', { status: 200, headers: { 'X-Ratelimit-Remaining': '0', 'X-Ratelimit-Reset': '3' } }),
      new Response('{"data":[1]}', { status: 200 }),
    ];
    const client = new PrintfulClient({
      apiBase: 'http://pf.test',
      oauthBase: 'http://pf.test',
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      fetch: async () => responses.shift() as Response,
    });
    await client.get('/v2/catalog-categories', 't');
    expect(await client.get('/v2/catalog-categories', 't')).toEqual({ data: [1] });
    expect(now).toBe(3000);
  });

  it('retries at once on Retry-After: 0, waits the seconds it names, and gives up with a 429 after maxRetries', async () => {
    let now = 0;
    let calls = 0;
    const throttled = (retryAfter: string) =>
      new Response('{}', {
        status: 429,
        headers: { 'Retry-After': retryAfter, 'X-Ratelimit-Remaining': '0', 'X-Ratelimit-Reset': '60.0' },
      });
    let answers: Response[] = [];
    const client = new PrintfulClient({
      apiBase: 'http://pf.test',
      oauthBase: 'http://pf.test',
      now: () => now,
      sleep: async (ms) => {
        now += ms;
      },
      fetch: async () => {
        calls++;
        return answers.shift() ?? new Response('{"data":[1]}', { status: 200 });
      },
    });
    answers = [throttled('0')];
    expect(await client.get('/v2/orders', 't')).toEqual({ data: [1] });
    expect(now).toBe(0);
    answers = [throttled('2')];
    await client.get('/v2/orders', 't');
    expect(now).toBe(2000);
    calls = 0;
    answers = [throttled('0'), throttled('0'), throttled('0'), throttled('0')];
    await expect(client.get('/v2/orders', 't')).rejects.toMatchObject({ status: 429 });
    expect(calls).toBe(4);
    expect(now).toBe(2000);
  });

  it('reads Printful error messages from every documented shape', () => {
    expect(
      printfulErrorMessage({ code: 404, result: 'Not Found', error: { reason: 'NotFound', message: 'Nope' } }, 'x'),
    ).toBe('Nope');
    expect(printfulErrorMessage({ type: 't', status: 500, title: 'Internal Server Error', details: 'Oops' }, 'x')).toBe(
      'Oops',
    );
    expect(printfulErrorMessage({ error: 'invalid_grant', error_description: 'Bad code' }, 'x')).toBe('Bad code');
    expect(printfulErrorMessage('<html>', 'fallback')).toBe('fallback');
  });
});
