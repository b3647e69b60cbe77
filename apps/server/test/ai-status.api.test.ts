import { ZAiError, ZAiStatus } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAi, startFakeOpenAi } from '../src/integrations/ai/fake-openai';
import { OpenAiProvider } from '../src/integrations/ai/openai.provider';
import { AiModelStatus } from '../src/modules/ai/ai-model-status';
import { createTestApp } from './helpers';

/** Today, for the 60-day window: gpt-4o-mini's 2027-01-14 is 48 days away. */
const NOW = new Date('2026-11-27T09:00:00Z');
const STATUS = '/api/ai/status';

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-status' });
});
afterAll(async () => {
  await fake.close();
});

const withModels = (env: Record<string, string>, now = NOW) =>
  createTestApp({ now: () => now, env: { OPENAI_API_KEY: 'sk-status', OPENAI_BASE_URL: fake.url, ...env } });
const modelReads = () => fake.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/models/'));

describe('GET /api/ai/status', () => {
  it('names no model and warns of nothing for the built-in offline writer (no key)', async () => {
    const t = await createTestApp({ now: () => NOW });
    try {
      const res = await t.client().get(STATUS);
      expect(res.statusCode).toBe(200);
      expect(ZAiStatus.parse(res.json())).toEqual({
        provider: 'offline',
        text: { model: null, shutdownDate: null, retired: false },
        image: { model: null, shutdownDate: null, retired: false },
        warnings: [],
        checkedAt: null,
      });
    } finally {
      await t.close();
    }
  });

  it('reads the default models from the provider: active, no shutdown announced, nothing to warn of', async () => {
    const t = await withModels({});
    try {
      const before = modelReads().length;
      const body = ZAiStatus.parse((await t.client().get(STATUS)).json());
      expect(body).toEqual({
        provider: 'openai',
        text: { model: 'gpt-6-luna', shutdownDate: null, retired: false },
        image: { model: 'gpt-image-2.6-flare', shutdownDate: null, retired: false },
        warnings: [],
        checkedAt: NOW.toISOString(),
      });
      expect(
        modelReads()
          .slice(before)
          .map((r) => r.path),
      ).toEqual(['/v1/models/gpt-6-luna', '/v1/models/gpt-image-2.6-flare']);
    } finally {
      await t.close();
    }
  });

  it('warns in plain words of a model shutting down within 60 days and of one that is gone', async () => {
    const t = await withModels({ OPENAI_MODEL: 'gpt-4o-mini', OPENAI_IMAGE_MODEL: 'dall-e-2' });
    try {
      const body = ZAiStatus.parse((await t.client().get(STATUS)).json());
      expect(body.text).toEqual({ model: 'gpt-4o-mini', shutdownDate: '2027-01-14', retired: false });
      expect(body.image).toEqual({ model: 'dall-e-2', shutdownDate: null, retired: true });
      expect(body.warnings).toEqual([
        'The AI provider will retire the model for AI listing text (gpt-4o-mini) on 2027-01-14, in 48 days: the operator must choose another (OPENAI_MODEL) before then.',
        'The AI provider retired the model for AI designs (dall-e-2): AI designs fail until the operator chooses another (OPENAI_IMAGE_MODEL).',
      ]);
    } finally {
      await t.close();
    }
  });

  it('does not warn of a shutdown more than 60 days away', async () => {
    const t = await withModels({ OPENAI_MODEL: 'gpt-4o-mini' }, new Date('2026-10-01T00:00:00Z'));
    try {
      const body = ZAiStatus.parse((await t.client().get(STATUS)).json());
      expect(body.text.shutdownDate).toBe('2027-01-14');
      expect(body.warnings).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('shows a model retired since the last check as soon as a call answers model_not_found', async () => {
    const t = await createTestApp({
      now: () => NOW,
      env: { AI_RATE_LIMIT_PER_MINUTE: '1000' },
      ai: new OpenAiProvider({
        apiKey: 'sk-status',
        baseURL: fake.url,
        model: 'gpt-6-luna',
        imageModel: 'gpt-image-1.5',
        maxRetries: 0,
      }),
    });
    const model = fake.models.find((m) => m.id === 'gpt-image-1.5');
    try {
      const client = t.client();
      // gpt-image-1.5 shuts down on 2026-12-01: four days' warning.
      expect(ZAiStatus.parse((await client.get(STATUS)).json()).warnings).toEqual([
        'The AI provider will retire the model for AI designs (gpt-image-1.5) on 2026-12-01, in 4 days: the operator must choose another (OPENAI_IMAGE_MODEL) before then.',
      ]);
      if (model) model.retired = true;
      const res = await client.post('/api/ai/designs', { prompt: 'a fox' });
      expect(res.statusCode).toBe(502);
      expect(ZAiError.parse(res.json())).toMatchObject({
        errorType: 'MODEL_RETIRED',
        error:
          'The AI provider retired this model (gpt-image-1.5); the operator must choose another (OPENAI_IMAGE_MODEL).',
      });
      const reads = modelReads().length;
      const after = ZAiStatus.parse((await client.get(STATUS)).json());
      expect(modelReads().length).toBe(reads);
      expect(after.warnings).toEqual([
        'The AI provider retired the model for AI designs (gpt-image-1.5): AI designs fail until the operator chooses another (OPENAI_IMAGE_MODEL).',
      ]);
    } finally {
      if (model) model.retired = false;
      await t.close();
    }
  });
});

describe('the models check job', () => {
  it('checks when the server starts listening, then on every period, and logs each model due', async () => {
    const t = await withModels({ OPENAI_MODEL: 'gpt-4o-mini' });
    const logged: string[] = [];
    t.deps.aiStatus.log = { warn: (_obj, msg) => logged.push(String(msg)), error: () => {} };
    try {
      const before = modelReads().length;
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      // The check starts once the server has settled (its first answer, or 3 s after it listens).
      await t.client().get('/api/dashboard/stats');
      await expect.poll(() => modelReads().length - before, { timeout: 5000 }).toBe(2);
      await expect.poll(() => logged.length).toBe(1);
      expect(logged[0]).toMatch(/gpt-4o-mini\) on 2027-01-14, in 48 days/);
    } finally {
      await t.close();
    }
  });

  it('asks again on each period until stopped', async () => {
    const provider = new OpenAiProvider({ apiKey: 'sk-status', baseURL: fake.url, model: 'gpt-6-luna', maxRetries: 0 });
    const status = new AiModelStatus(provider, () => NOW);
    const before = modelReads().length;
    status.start(100);
    try {
      await expect.poll(() => modelReads().length - before, { timeout: 5000 }).toBeGreaterThanOrEqual(6);
    } finally {
      status.stop();
    }
  });
});
