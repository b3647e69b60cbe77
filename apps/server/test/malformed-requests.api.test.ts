import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { pngOf } from './support/design-fixtures';

/**
 * Issue 25, point 7: a malformed multipart body is the caller's mistake (400 naming it, never a 500 with a stack
 * trace); a client that stalls is closed within the configured header and body timeouts; upload temp files never
 * outlive their request, and a start sweeps what a crash left.
 */

const ROUTES = [
  '/api/designs/upload',
  '/api/upload/files',
  '/api/products',
  '/api/ai/analyze-image',
  '/api/ai/designs',
];
const FIELD: Record<string, string> = {
  '/api/designs/upload': 'file',
  '/api/upload/files': 'files',
  '/api/products': 'file',
  '/api/ai/analyze-image': 'image',
  '/api/ai/designs': 'file',
};

function body(boundary: string, field: string, content: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
}

describe('malformed multipart answers 400 with the reason on every upload route', () => {
  let t: TestApp;
  let client: TestClient;
  let png: Buffer;

  beforeAll(async () => {
    t = await createTestApp();
    client = t.client();
    png = await pngOf(16, 16);
  });
  afterAll(async () => {
    await t.close();
  });

  const cases: [string, (field: string) => { type: string; payload: Buffer }, RegExp][] = [
    [
      'no boundary',
      (field) => ({ type: 'multipart/form-data', payload: body('xyz', field, png) }),
      /multipart.*boundary/i,
    ],
    [
      'a boundary the body does not use',
      (field) => ({ type: 'multipart/form-data; boundary=other', payload: body('xyz', field, png) }),
      /multipart/i,
    ],
    [
      'a truncated body',
      (field) => {
        const whole = body('xyz', field, png);
        return { type: 'multipart/form-data; boundary=xyz', payload: whole.subarray(0, whole.length - 60) };
      },
      /ended|end of/i,
    ],
    [
      'a malformed part header',
      () => ({
        type: 'multipart/form-data; boundary=xyz',
        payload: Buffer.from(`--xyz\r\nthis is no header\r\n\r\nbytes\r\n--xyz--\r\n`),
      }),
      // No part the route can read: the route names what is missing.
      /./,
    ],
  ];

  for (const route of ROUTES) {
    for (const [name, make, reason] of cases) {
      it(`${route}: ${name}`, async () => {
        const { type, payload } = make(FIELD[route] ?? 'file');
        const res = await client.request({ method: 'POST', url: route, payload, headers: { 'content-type': type } });
        expect(res.statusCode, res.body).toBe(400);
        expect(['BAD_REQUEST', 'VALIDATION_FAILED']).toContain(res.json().code);
        // AI designs takes JSON only: whatever the multipart body holds, the answer names the body it wanted.
        expect(res.json().error).toMatch(route === '/api/ai/designs' ? /body/i : reason);
        expect(res.body).not.toMatch(/ at .*\.(js|ts):\d+/);
      });
    }
  }

  it('logs no error and no stack trace for them', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const logged = await createTestApp({ logger });
    try {
      for (const route of ROUTES) {
        for (const [, make] of cases) {
          const { type, payload } = make(FIELD[route] ?? 'file');
          const res = await logged.app.inject({
            method: 'POST',
            url: route,
            payload,
            headers: { 'content-type': type },
          });
          expect(res.statusCode).toBe(400);
        }
      }
      // Each request is logged (incoming, completed) at info; none as an error, and no stack anywhere.
      expect(lines.length).toBeGreaterThan(0);
      const records = lines.map((line) => JSON.parse(line) as { level: number; err?: { stack?: string } });
      expect(records.filter((r) => r.level >= 40)).toEqual([]);
      expect(records.filter((r) => r.err?.stack)).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('leaves no temporary file behind', () => {
    const dir = path.join(t.dataDir, 'tmp');
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
  });
});

describe('stalled clients are closed within the configured timeouts', () => {
  let t: TestApp;
  let port: number;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({
      env: { REQUEST_HEADER_TIMEOUT_SECONDS: '1', REQUEST_BODY_IDLE_TIMEOUT_SECONDS: '1' },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    const client = t.client();
    await client.get('/api/dashboard/stats');
    cookie = client.cookie as string;
  });
  afterAll(async () => {
    await t.close();
  });

  /** Opens a socket, writes `data`, and resolves with how long the server took to close it (null: still open). */
  function stall(data: string | Buffer, waitMs: number): Promise<{ closedAfterMs: number | null; answer: string }> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      const started = Date.now();
      let answer = '';
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ closedAfterMs: null, answer });
      }, waitMs);
      socket.on('data', (chunk) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closedAfterMs: Date.now() - started, answer });
      });
      socket.write(data);
    });
  }

  it('a request whose headers never end is closed', async () => {
    const { closedAfterMs } = await stall('GET /api/dashboard/stats HTTP/1.1\r\nHost: x\r\nX-Slow: 1', 8000);
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs).toBeLessThan(4000);
  });

  it('an upload that sends half its body and stops is closed, and its temp file removed', async () => {
    const png = await pngOf(300, 300);
    const whole = body('xyz', 'file', png);
    const head = [
      'POST /api/designs/upload HTTP/1.1',
      'Host: 127.0.0.1',
      `Cookie: ${cookie}`,
      'Content-Type: multipart/form-data; boundary=xyz',
      `Content-Length: ${whole.length}`,
      '',
      '',
    ].join('\r\n');
    const tmp = path.join(t.dataDir, 'tmp');
    const { closedAfterMs } = await stall(
      Buffer.concat([Buffer.from(head), whole.subarray(0, whole.length / 2)]),
      8000,
    );
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs).toBeLessThan(4000);
    await vi.waitFor(() => expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]), { timeout: 5000 });
  });

  it('a multi-file upload whose first file waits for a decoder longer than the limit is not cut', async () => {
    // The server stops reading while file 1 waits (its reader is paused): that is not the client's silence.
    const boundary = 'xyz';
    const whole = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="one.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      await pngOf(32, 32),
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="two.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      randomBytes(4 * 1024 * 1024),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head = [
      'POST /api/upload/files HTTP/1.1',
      'Host: 127.0.0.1',
      `Cookie: ${cookie}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${whole.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const release = await t.deps.decodePool.lease({ label: 'held by the test' });
    const held = setTimeout(release, 3000);
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
        });
        socket.on('error', () => {});
        socket.on('close', () => resolve(text));
        socket.write(Buffer.concat([Buffer.from(head), whole]));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      expect(answer).toContain('"name":"one.png"');
      expect(answer).toContain('"name":"two.bin"');
    } finally {
      clearTimeout(held);
      release();
    }
  });

  it('a slow but moving upload is not cut', async () => {
    // Each piece comes within the idle limit: the whole upload takes longer than the limit and still succeeds.
    const png = await pngOf(64, 64);
    const whole = body('xyz', 'file', png);
    const head = [
      'POST /api/designs/upload HTTP/1.1',
      'Host: 127.0.0.1',
      `Cookie: ${cookie}`,
      'Content-Type: multipart/form-data; boundary=xyz',
      `Content-Length: ${whole.length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const answer = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('close', () => resolve(text));
      socket.write(head);
      const pieces = 4;
      const size = Math.ceil(whole.length / pieces);
      let i = 0;
      const next = () => {
        socket.write(whole.subarray(i * size, (i + 1) * size));
        i += 1;
        if (i < pieces) setTimeout(next, 500);
      };
      setTimeout(next, 500);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 201/);
  });
});

describe('temporary files of crashed uploads', () => {
  it('are swept from DATA_DIR/tmp when the server starts', async () => {
    const first = await createTestApp();
    const tmp = path.join(first.dataDir, 'tmp');
    await first.app.close();
    // What a killed process left: an upload's temp file and a folder of a decode step.
    fs.mkdirSync(path.join(tmp, 'work-1'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'upload-0123456789abcdef'), 'half a file');
    fs.writeFileSync(path.join(tmp, 'work-1', 'layer.png'), 'x');
    const again = await createTestApp({ env: { DATA_DIR: first.dataDir } });
    try {
      expect(fs.readdirSync(tmp)).toEqual([]);
    } finally {
      await again.close();
      fs.rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});
