import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    setup(app) {
      // A route that fails the way a bug would, to prove 5xx answers hide the details.
      app.get('/api/__test__/boom', async () => {
        throw new Error('secret internal detail at /srv/app.ts:42');
      });
      app.post('/api/__test__/echo', async (request) => request.body);
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('error answers', () => {
  it('answers an unknown /api route with 404 JSON', async () => {
    const response = await t.client().get('/api/no-such-thing');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({ error: 'Route GET /api/no-such-thing not found', code: 'NOT_FOUND' });
  });

  it('answers a validation failure with 400 naming the field', async () => {
    const response = await t.client().get('/api/dashboard/recent-uploads?limit=0');
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toMatch(/^Invalid query: limit: /);
  });

  it('answers malformed JSON with 400 in the error shape', async () => {
    const response = await t.client().request({
      method: 'POST',
      url: '/api/__test__/echo',
      payload: '{"broken":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json()).sort()).toEqual(['code', 'error']);
  });

  it('never leaks a stack trace or message in a 5xx', async () => {
    const response = await t.client().get('/api/__test__/boom');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error', code: 'INTERNAL_ERROR' });
    expect(response.body).not.toContain('secret internal detail');
  });
});
