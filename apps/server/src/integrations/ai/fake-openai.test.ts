import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from './fake-openai';

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-fake' });
});
afterAll(async () => {
  await fake.close();
});

type Answer = {
  data: { id: string; shutdown_date: string | null; b64_json?: string }[];
  error: { code: string; param: string | null };
};
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { authorization: 'Bearer sk-fake', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Answer };
};

describe('the fake OpenAI models what OpenAI answers', () => {
  it('lists the models with their shutdown_date and leaves out the retired ones', async () => {
    const list = await call('GET', '/models');
    expect(list.body.data.map((m) => [m.id, m.shutdown_date])).toEqual([
      ['gpt-6-luna', null],
      ['gpt-4o-mini', '2027-01-14'],
      ['gpt-image-2.6-flare', null],
      ['gpt-image-1.5', '2026-12-01'],
    ]);
    expect((await call('GET', '/models/gpt-4o-mini')).body).toMatchObject({
      id: 'gpt-4o-mini',
      shutdown_date: '2027-01-14',
    });
  });

  it('answers a retired model with 404 model_not_found, on every endpoint', async () => {
    const notFound = {
      status: 404,
      body: {
        error: { code: 'model_not_found', type: 'invalid_request_error', message: expect.stringContaining('dall-e-2') },
      },
    };
    expect(await call('GET', '/models/dall-e-2')).toMatchObject(notFound);
    expect(
      await call('POST', '/images/generations', { model: 'dall-e-2', prompt: 'a fox', response_format: 'b64_json' }),
    ).toMatchObject(notFound);
  });

  it('refuses what a gpt-image model does not take: response_format, the older sizes, a transparent JPEG', async () => {
    const refused = async (body: Record<string, unknown>) =>
      (await call('POST', '/images/generations', { model: 'gpt-image-2.6-flare', prompt: 'a fox', ...body })).body
        .error;
    expect(await refused({ response_format: 'b64_json' })).toMatchObject({
      code: 'unknown_parameter',
      param: 'response_format',
    });
    expect(await refused({ size: '512x512' })).toMatchObject({ code: 'invalid_value', param: 'size' });
    expect(await refused({ background: 'transparent', output_format: 'jpeg' })).toMatchObject({ param: 'background' });
    const ok = await call('POST', '/images/generations', {
      model: 'gpt-image-2.6-flare',
      prompt: 'a fox',
      size: '1536x1024',
      background: 'transparent',
      output_format: 'png',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ background: 'transparent', output_format: 'png' });
    expect(Object.keys(ok.body.data[0] ?? {})).toEqual(['b64_json']);
  });

  it('refuses a chat model on the images endpoint and an image model on chat', async () => {
    expect((await call('POST', '/images/generations', { model: 'gpt-6-luna', prompt: 'x' })).status).toBe(400);
    expect((await call('POST', '/chat/completions', { model: 'gpt-image-2.6-flare', messages: [] })).status).toBe(400);
  });
});
