import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A PNG of one colour per index, so each generated image differs. */
async function fakeImage(size: number, index: number): Promise<string> {
  const colours = ['#e63946', '#457b9d', '#2a9d8f', '#f4a261'];
  const png = await sharp({
    create: { width: size, height: size, channels: 3, background: colours[index % colours.length] as string },
  })
    .png()
    .toBuffer();
  return png.toString('base64');
}

/**
 * A local stand-in for OpenAI's chat completions (`POST /v1/chat/completions`) with structured output and its images
 * API (`POST /v1/images/generations`, `b64_json` answers), for tests. Listens on 127.0.0.1 only. It answers a fixed
 * listing built from the request, n solid-colour PNGs of the asked size, or the error a test asks for.
 */
export type FakeOpenAi = {
  /** Base URL for the SDK, ending in /v1. */
  url: string;
  /** Answer the next call with this status and OpenAI's error body. */
  failNext(status: number, code: string, type?: string): void;
  /** Bodies of the calls received, parsed. */
  requests: { authorization: string | undefined; body: Record<string, unknown> }[];
  close(): Promise<void>;
};

export async function startFakeOpenAi(options: { apiKey?: string } = {}): Promise<FakeOpenAi> {
  const apiKey = options.apiKey ?? 'sk-test';
  const requests: FakeOpenAi['requests'] = [];
  let failure: { status: number; code: string; type: string } | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const error = (status: number, code: string, type: string, message: string) =>
        send(status, { error: { message, type, param: null, code } });

      const isImages = req.url === '/v1/images/generations';
      if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && !isImages)) {
        return error(404, 'not_found', 'invalid_request_error', 'Not found');
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      requests.push({ authorization: req.headers.authorization, body });
      if (failure) {
        const f = failure;
        failure = null;
        return error(f.status, f.code, f.type, `Fake failure ${f.code}`);
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return error(401, 'invalid_api_key', 'invalid_request_error', 'Incorrect API key provided.');
      }
      if (isImages) {
        const n = Number(body.n ?? 1);
        const size = Number(String(body.size ?? '1024x1024').split('x')[0]);
        Promise.all(Array.from({ length: n }, (_, i) => fakeImage(size, i))).then(
          (images) =>
            send(200, { created: Math.floor(Date.now() / 1000), data: images.map((b64_json) => ({ b64_json })) }),
          () => error(500, 'server_error', 'server_error', 'Fake image failed'),
        );
        return;
      }
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
            const match = /^data:image\/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)$/.exec(part.image_url?.url ?? '');
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
