import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

const COLOURS = ['#e63946', '#457b9d', '#2a9d8f', '#f4a261'];

/**
 * A PNG of one colour per index, so each generated image differs. With a transparent background it is a coloured
 * disc on transparent pixels, as the gpt-image models draw a print design when asked for `background: transparent`.
 */
async function fakeImage(width: number, height: number, index: number, transparent: boolean): Promise<string> {
  const colour = COLOURS[index % COLOURS.length] as string;
  if (!transparent) {
    const png = await sharp({ create: { width, height, channels: 3, background: colour } })
      .png()
      .toBuffer();
    return png.toString('base64');
  }
  const r = Math.floor(Math.min(width, height) / 3);
  const disc = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${r}" fill="${colour}"/></svg>`;
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: Buffer.from(disc) }])
    .png()
    .toBuffer();
  return png.toString('base64');
}

/**
 * A model the fake knows, as OpenAI describes it:
 * - `chat`: chat completions with structured output and image input;
 * - `image`: the gpt-image models' images API (base64 answers only, no `response_format`; sizes 1024x1024,
 *   1536x1024, 1024x1536 or auto; `background` and `output_format`);
 * - `legacy-image`: the older images API shape (dall-e-2's, still spoken by some OpenAI-compatible servers): a URL
 *   answer unless `response_format: b64_json`, square sizes 256, 512 or 1024, no `background` or `output_format`.
 */
export type FakeModel = {
  id: string;
  kind: 'chat' | 'image' | 'legacy-image';
  /** `shutdown_date` as `GET /v1/models` gives it: YYYY-MM-DD, or null when none is announced. */
  shutdownDate: string | null;
  /** Shut down: every call naming it answers 404 model_not_found, and the models list leaves it out. */
  retired?: boolean;
  /** Request parameters this model refuses with 400 unsupported_parameter (e.g. a reasoning model's temperature). */
  refuses?: string[];
  /** A `legacy-image` server that ignores parameters it does not know instead of refusing them (some do). */
  lenient?: boolean;
  /** An `image` model that takes `background` but cannot draw a transparent one (400 invalid_value). */
  opaqueOnly?: boolean;
};

/**
 * The models the fake serves unless a test gives its own, with their status as OpenAI's deprecations page and
 * `GET /v1/models` gave it on 2026-11-27 (see README, 'AI models'): the defaults are active, gpt-4o-mini and
 * gpt-image-1.5 are deprecated with a date, dall-e-2 and dall-e-3 shut down on 2026-05-12.
 */
export const FAKE_OPENAI_MODELS: readonly FakeModel[] = [
  { id: 'gpt-6-luna', kind: 'chat', shutdownDate: null },
  { id: 'gpt-4o-mini', kind: 'chat', shutdownDate: '2027-01-14' },
  { id: 'gpt-image-2.6-flare', kind: 'image', shutdownDate: null },
  { id: 'gpt-image-1.5', kind: 'image', shutdownDate: '2026-12-01' },
  { id: 'dall-e-2', kind: 'legacy-image', shutdownDate: '2026-05-12', retired: true },
  { id: 'dall-e-3', kind: 'legacy-image', shutdownDate: '2026-05-12', retired: true },
];

const IMAGE_PARAMS = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'quality',
  'background',
  'output_format',
  'output_compression',
  'moderation',
  'user',
]);
const IMAGE_SIZES = new Set(['1024x1024', '1536x1024', '1024x1536', 'auto']);
const LEGACY_IMAGE_PARAMS = new Set(['model', 'prompt', 'n', 'size', 'response_format', 'user']);
const LEGACY_IMAGE_SIZES = new Set(['256x256', '512x512', '1024x1024']);

/**
 * A local stand-in for OpenAI's chat completions (`POST /v1/chat/completions`) with structured output, its images
 * API (`POST /v1/images/generations`) and its models (`GET /v1/models`, `GET /v1/models/{id}` with `shutdown_date`),
 * for tests. Listens on 127.0.0.1 only. It answers a fixed listing built from the request, n PNGs of the asked size,
 * the error OpenAI gives for a retired model or a parameter the model does not take, or the error a test asks for.
 */
export type FakeOpenAi = {
  /** Base URL for the SDK, ending in /v1. */
  url: string;
  /** Answer the next call with this status and OpenAI's error body. */
  failNext(status: number, code: string, type?: string): void;
  /** Bodies of the calls received, parsed (GET calls with an empty body). */
  requests: { method: string; path: string; authorization: string | undefined; body: Record<string, unknown> }[];
  /** The fake's models, changeable by a test (a model retired, a shutdown announced). */
  models: FakeModel[];
  close(): Promise<void>;
};

export async function startFakeOpenAi(options: { apiKey?: string; models?: FakeModel[] } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? 'sk-test';
  const requests: FakeOpenAi['requests'] = [];
  const models: FakeModel[] = (options.models ?? FAKE_OPENAI_MODELS).map((m) => ({ ...m }));
  let failure: { status: number; code: string; type: string } | null = null;
  const created = Math.floor(Date.UTC(2026, 0, 1) / 1000);
  const describe = (m: FakeModel) => ({
    id: m.id,
    object: 'model',
    created,
    owned_by: 'system',
    shutdown_date: m.shutdownDate,
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, code: string, type: string, message: string, param: string | null = null) =>
        send(status, { error: { message, type, param, code } });
      const notFound = (id: string) =>
        error(
          404,
          'model_not_found',
          'invalid_request_error',
          `The model \`${id}\` does not exist or you do not have access to it.`,
          'model',
        );

      const path = (req.url ?? '').split('?')[0] ?? '';
      const isChat = req.method === 'POST' && path === '/v1/chat/completions';
      const isImages = req.method === 'POST' && path === '/v1/images/generations';
      const modelId =
        req.method === 'GET' && path.startsWith('/v1/models/') ? decodeURIComponent(path.slice(11)) : null;
      const isModels = req.method === 'GET' && path === '/v1/models';
      if (!isChat && !isImages && modelId === null && !isModels) {
        return error(404, 'not_found', 'invalid_request_error', 'Not found');
      }
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        return error(400, 'invalid_json', 'invalid_request_error', 'We could not parse the JSON body of your request.');
      }
      requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });
      if (failure) {
        const f = failure;
        failure = null;
        return error(f.status, f.code, f.type, `Fake failure ${f.code}`);
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return error(401, 'invalid_api_key', 'invalid_request_error', 'Incorrect API key provided.');
      }
      if (isModels) {
        return send(200, { object: 'list', data: models.filter((m) => !m.retired).map(describe) });
      }
      if (modelId !== null) {
        const model = models.find((m) => m.id === modelId && !m.retired);
        return model ? send(200, describe(model)) : notFound(modelId);
      }

      const model = models.find((m) => m.id === body.model && !m.retired);
      if (!model) return notFound(String(body.model));
      const refused = (model.refuses ?? []).find((p) => p in body);
      if (refused) {
        return error(
          400,
          'unsupported_parameter',
          'invalid_request_error',
          `Unsupported parameter: '${refused}' is not supported with this model.`,
          refused,
        );
      }
      if (isImages) return images(model, body);
      if (model.kind !== 'chat') {
        return error(400, 'invalid_value', 'invalid_request_error', `${model.id} is not a chat model.`, 'model');
      }
      return chat(body);

      function images(model: FakeModel, request: Record<string, unknown>) {
        if (model.kind === 'chat') {
          return error(400, 'invalid_value', 'invalid_request_error', `${model.id} is not an image model.`, 'model');
        }
        const legacy = model.kind === 'legacy-image';
        const known = legacy ? LEGACY_IMAGE_PARAMS : IMAGE_PARAMS;
        // A lenient server reads only what it knows; the others refuse the first parameter they do not know.
        const body = model.lenient
          ? Object.fromEntries(Object.entries(request).filter(([k]) => known.has(k)))
          : request;
        const unknown = Object.keys(body).find((k) => !known.has(k));
        if (unknown) {
          return error(400, 'unknown_parameter', 'invalid_request_error', `Unknown parameter: '${unknown}'.`, unknown);
        }
        const size = String(body.size ?? (legacy ? '1024x1024' : 'auto'));
        if (!(legacy ? LEGACY_IMAGE_SIZES : IMAGE_SIZES).has(size)) {
          return error(400, 'invalid_value', 'invalid_request_error', `Invalid value: '${size}'.`, 'size');
        }
        const background = String(body.background ?? 'auto');
        const format = String(body.output_format ?? 'png');
        if (!legacy && !['transparent', 'opaque', 'auto'].includes(background)) {
          return error(400, 'invalid_value', 'invalid_request_error', `Invalid value: '${background}'.`, 'background');
        }
        if (!legacy && !['png', 'jpeg', 'webp'].includes(format)) {
          return error(400, 'invalid_value', 'invalid_request_error', `Invalid value: '${format}'.`, 'output_format');
        }
        if (background === 'transparent' && model.opaqueOnly) {
          return error(
            400,
            'invalid_value',
            'invalid_request_error',
            `Transparent background is not supported for ${model.id}.`,
            'background',
          );
        }
        if (background === 'transparent' && format === 'jpeg') {
          return error(
            400,
            'invalid_value',
            'invalid_request_error',
            'Transparent background requires output_format png or webp.',
            'background',
          );
        }
        const asUrl = legacy && body.response_format !== 'b64_json';
        const [w, h] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
        const n = Number(body.n ?? 1);
        Promise.all(Array.from({ length: n }, (_, i) => fakeImage(w, h, i, background === 'transparent'))).then(
          (images) =>
            send(200, {
              created: Math.floor(Date.now() / 1000),
              data: images.map((b64_json, i) =>
                asUrl ? { url: `http://127.0.0.1:${port}/files/image-${i}.png` } : { b64_json },
              ),
              ...(legacy ? {} : { background: background === 'auto' ? 'opaque' : background, output_format: format }),
            }),
          () => error(500, 'server_error', 'server_error', 'Fake image failed'),
        );
      }

      function chat(body: Record<string, unknown>) {
        type Part = { type: string; text?: string; image_url?: { url?: string } };
        const messages = body.messages as { role: string; content: string | Part[] }[];
        const user = messages.find((m) => m.role === 'user')?.content ?? '{}';
        // Vision requests send an array of parts: the text, and images as URLs or base64 data URLs, as OpenAI does.
        let text = typeof user === 'string' ? user : '';
        let imageBytes = 0;
        if (Array.isArray(user)) {
          for (const part of user) {
            if (part.type === 'text') text = part.text ?? '';
            else if (part.type === 'image_url') {
              const match = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)$/.exec(
                part.image_url?.url ?? '',
              );
              if (!match) {
                return error(400, 'invalid_image_format', 'invalid_request_error', 'Invalid image URL or format.');
              }
              imageBytes += Buffer.from(match[2] as string, 'base64').length;
            } else return error(400, 'invalid_value', 'invalid_request_error', `Unknown content part ${part.type}.`);
          }
        }
        const prompt = JSON.parse(text || '{}') as Record<string, string>;
        const listing = {
          title: `${imageBytes ? 'Seen ' : ''}${prompt.design ?? 'Design'} ${prompt.productType ?? ''}`.trim(),
          description: `A listing for ${prompt.design ?? 'the design'}.\n\nPrinted on the ${
            (prompt.product as unknown as { name?: string } | null)?.name ?? 'product'
          }.`,
          tags: ['fake tag', 'another tag'],
        };
        send(200, {
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: JSON.stringify(listing), refusal: null },
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    failNext(status, code, type = 'invalid_request_error') {
      failure = { status, code, type };
    },
    requests,
    models,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
