import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_PRODUCTS } from '../printful/catalog/bundled';
import { type FakeOpenAi, startFakeOpenAi } from './fake-openai';
import { listingFacts } from './listing-facts';
import { OpenAiProvider } from './openai.provider';
import { AiProviderError, type ContentRequest } from './provider';

const request: ContentRequest = {
  subject: 'Retro Sunset Cat',
  keywords: [],
  details: 'an orange cat in front of a striped sunset',
  productType: 'tshirt',
  audience: 'unisex',
  style: '',
  platform: 'etsy',
  creativity: 5,
  includeSEO: true,
  generateTags: true,
  seed: 3,
  design: null,
  choice: null,
};
const facts = listingFacts(BUNDLED_PRODUCTS, 'tshirt', 'unisex');

let fake: FakeOpenAi;
let provider: OpenAiProvider;
beforeAll(async () => {
  fake = await startFakeOpenAi({ apiKey: 'sk-good' });
  provider = new OpenAiProvider({ apiKey: 'sk-good', baseURL: fake.url, model: 'gpt-6-luna', maxRetries: 0 });
});
afterAll(async () => {
  await fake.close();
});

describe('OpenAiProvider', () => {
  it('asks for structured JSON with the request and the catalogue facts, and returns the listing', async () => {
    const draft = await provider.generateContent(request, facts);
    expect(draft).toEqual({
      title: 'Retro Sunset Cat T-Shirt',
      description: `A listing for Retro Sunset Cat.\n\nPrinted on the ${facts.product?.name}.`,
      tags: ['fake tag', 'another tag'],
    });
    const sent = fake.requests.at(-1);
    expect(sent?.authorization).toBe('Bearer sk-good');
    expect(sent?.body).toMatchObject({
      model: 'gpt-6-luna',
      seed: 3,
      temperature: 0.6,
      response_format: { type: 'json_schema', json_schema: { name: 'listing', strict: true } },
    });
    const messages = (sent?.body.messages ?? []) as { content: string }[];
    const prompt = JSON.parse(messages[1]?.content ?? '{}');
    expect(prompt).toMatchObject({
      design: 'Retro Sunset Cat',
      designDescription: 'an orange cat in front of a striped sunset',
      product: { name: facts.product?.name, description: facts.product?.description },
      options: facts.variants,
    });
  });

  it.each([
    [429, 'insufficient_quota', 'insufficient_quota', 'QUOTA_EXCEEDED'],
    [401, 'invalid_api_key', 'invalid_request_error', 'INVALID_API_KEY'],
    [403, 'unsupported_country_region_territory', 'request_forbidden', 'ACCESS_DENIED'],
    [429, 'rate_limit_exceeded', 'requests', 'RATE_LIMITED'],
    [500, 'server_error', 'server_error', 'PROVIDER_ERROR'],
  ])('maps %i %s to %s', async (status, code, type, errorType) => {
    fake.failNext(status, code, type);
    const error = await provider.generateContent(request, facts).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AiProviderError);
    expect((error as AiProviderError).errorType).toBe(errorType);
  });

  it('reports a wrong key as INVALID_API_KEY and an unreachable server as PROVIDER_ERROR', async () => {
    const wrongKey = new OpenAiProvider({ apiKey: 'sk-bad', baseURL: fake.url, model: 'm', maxRetries: 0 });
    await expect(wrongKey.generateContent(request, facts)).rejects.toMatchObject({ errorType: 'INVALID_API_KEY' });
    const down = new OpenAiProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
    await expect(down.generateContent(request, facts)).rejects.toMatchObject({ errorType: 'PROVIDER_ERROR' });
  });

  it('answers a model OpenAI shut down (404 model_not_found) as MODEL_RETIRED in the operator’s words', async () => {
    const old = new OpenAiProvider({ apiKey: 'sk-good', baseURL: fake.url, model: 'gpt-3.5-turbo', maxRetries: 0 });
    const error = await old.generateContent(request, facts).catch((e: unknown) => e);
    expect(error).toMatchObject({
      errorType: 'MODEL_RETIRED',
      message: 'The AI provider retired this model (gpt-3.5-turbo); the operator must choose another (OPENAI_MODEL).',
      retired: { role: 'text', model: 'gpt-3.5-turbo' },
    });
  });

  it('reads each configured model’s shutdown_date, and says which one is gone', async () => {
    const deprecated = new OpenAiProvider({
      apiKey: 'sk-good',
      baseURL: fake.url,
      model: 'gpt-4o-mini',
      imageModel: 'dall-e-2',
      maxRetries: 0,
    });
    expect(await deprecated.describeModels()).toEqual({
      text: { model: 'gpt-4o-mini', state: 'active', shutdownDate: '2027-01-14' },
      image: { model: 'dall-e-2', state: 'gone', shutdownDate: null },
    });
    expect(fake.requests.slice(-2).map((r) => [r.method, r.path])).toEqual([
      ['GET', '/v1/models/gpt-4o-mini'],
      ['GET', '/v1/models/dall-e-2'],
    ]);
    // The defaults: active, no shutdown announced.
    expect(await provider.describeModels()).toEqual({
      text: { model: 'gpt-6-luna', state: 'active', shutdownDate: null },
      image: { model: 'gpt-image-2.6-flare', state: 'active', shutdownDate: null },
    });
    // A server that cannot be asked tells nothing.
    const down = new OpenAiProvider({ apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', model: 'm', maxRetries: 0 });
    expect((await down.describeModels()).text).toEqual({ model: 'm', state: 'unknown', shutdownDate: null });
  });
});

describe('OpenAiProvider against a model that refuses a parameter', () => {
  it('asks a model that takes no temperature again without it, and leaves it out from then on', async () => {
    const strict = await startFakeOpenAi({
      apiKey: 'sk-good',
      models: [{ id: 'reasoner', kind: 'chat', shutdownDate: null, refuses: ['temperature'] }],
    });
    try {
      const reasoner = new OpenAiProvider({ apiKey: 'sk-good', baseURL: strict.url, model: 'reasoner', maxRetries: 0 });
      expect((await reasoner.generateContent(request, facts)).title).toBe('Retro Sunset Cat T-Shirt');
      await reasoner.generateContent(request, facts);
      const bodies = strict.requests.map((r) => r.body);
      expect(bodies).toHaveLength(3);
      expect(bodies[0]).toHaveProperty('temperature', 0.6);
      expect(bodies[1]).not.toHaveProperty('temperature');
      expect(bodies[1]).toHaveProperty('seed', 3);
      expect(bodies[2]).not.toHaveProperty('temperature');
    } finally {
      await strict.close();
    }
  });

  it('asks an image model that cannot draw a transparent background again with an opaque one, and keeps to it', async () => {
    const strict = await startFakeOpenAi({
      apiKey: 'sk-good',
      models: [{ id: 'opaque-image', kind: 'image', shutdownDate: null, opaqueOnly: true }],
    });
    try {
      const opaque = new OpenAiProvider({
        apiKey: 'sk-good',
        baseURL: strict.url,
        model: 'gpt-6-luna',
        imageModel: 'opaque-image',
        maxRetries: 0,
      });
      const design = { prompt: 'a fox', size: 1024, n: 1, style: 'line-art' as const, seed: 0 };
      expect(await opaque.generateDesigns(design)).toHaveLength(1);
      await opaque.generateDesigns(design);
      const bodies = strict.requests.map((r) => r.body);
      expect(bodies.map((b) => b.background)).toEqual(['transparent', 'opaque', 'opaque']);
      expect(bodies[1]).not.toHaveProperty('response_format');
      expect(String(bodies[1]?.prompt)).toMatch(/plain white background/i);
    } finally {
      await strict.close();
    }
  });
});
