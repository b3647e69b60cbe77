import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type FakePrintfulModule = {
  startFakePrintful(options: {
    clientId: string;
    clientSecret: string;
  }): Promise<{ url: string; close(): Promise<void> }>;
};

/** The server's own fake (apps/server/src/integrations/printful), loaded at run time: it is not part of this TS project. */
const loadFakePrintful = () =>
  import(
    pathToFileURL(path.join(repoRoot, 'apps/server/src/integrations/printful/fake-server.ts')).href
  ) as Promise<FakePrintfulModule>;

/** Starts `node apps/server/dist/main.js` (built by `npm run test:e2e`) on a free port; resolves with its URL. */
function startServer(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/main.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    // Starting (PGlite's migrations in WASM) took 25 s on a busy two-core machine. A server that does not start in
    // time is stopped, so it does not linger and slow the next run.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`Server did not start in 90 s:\n${output}`));
    }, 90_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/Podforge is running at (http:\/\/[^\s"]+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Server exited with ${code}:\n${output}`));
    });
  });
}

/**
 * One upload (a small SVG, in a workspace of its own) before the first test: a listening server starts its decoders
 * after its first answer, and each loads the SVG sanitiser then, which held the first test's upload back past its
 * 10 s on a busy CI machine. The cold start is the uploads bench's to measure; the tests measure behaviour.
 */
async function warmUp(url: string): Promise<void> {
  const signal = AbortSignal.timeout(60_000);
  const first = await fetch(`${url}/api/dashboard/stats`, { signal });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const form = new FormData();
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300"/></svg>';
  form.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'warm-up.svg');
  const res = await fetch(`${url}/api/designs/upload`, { method: 'POST', body: form, headers: { cookie }, signal });
  if (res.status !== 201) throw new Error(`The warm-up upload answered ${res.status}: ${await res.text()}`);
}

export default async function globalSetup() {
  if (!fs.existsSync(path.join(repoRoot, 'apps/server/dist/main.js'))) {
    throw new Error('Build first: npm run build (npm run test:e2e does it)');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-e2e-'));
  // The server's Printful OAuth and live catalogue go to this local fake (apis.md B and D).
  const { startFakePrintful } = await loadFakePrintful();
  const printful = await startFakePrintful({ clientId: 'e2e-printful', clientSecret: 'e2e-printful-secret' });
  const { url, child } = await startServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DATABASE_URL: '',
    // Tests time their own renders; a background warm-up would only compete for the two cores.
    MOCKUP_TEMPLATE_WARMUP: 'false',
    PRINTFUL_CLIENT_ID: 'e2e-printful',
    PRINTFUL_CLIENT_SECRET: 'e2e-printful-secret',
    PRINTFUL_API_BASE: printful.url,
    PRINTFUL_OAUTH_BASE: printful.url,
    PRINTFUL_TOKEN: '',
    // No Shopify app credentials: stores connect to the server's built-in sandbox (shopify.spec.ts).
    SHOPIFY_API_KEY: '',
    SHOPIFY_API_SECRET: '',
    // Orders go to the built-in Printful Sandbox (no Printful store connected), which ships this soon after approval.
    PRINTFUL_SANDBOX_SHIP_SECONDS: '3',
    // Printify products' orders go to the built-in Printify Sandbox when a test chooses it; it ships this soon.
    PRINTIFY_SANDBOX_SHIP_SECONDS: '3',
    // The built-in Gelato sandbox ships as soon (gelato.spec.ts).
    GELATO_SANDBOX_SHIP_SECONDS: '3',
    // No Etsy app key either: Etsy connects to the built-in sandbox shop (stores.spec.ts).
    ETSY_API_KEY: '',
    ETSY_SHARED_SECRET: '',
    // No SP-API application: Amazon connects to the built-in sandbox seller (amazon.spec.ts).
    AMAZON_APP_ID: '',
    AMAZON_LWA_CLIENT_ID: '',
    AMAZON_LWA_CLIENT_SECRET: '',
    // Every test's browser context is a new workspace from 127.0.0.1, and AI specs share that address.
    WORKSPACE_CREATE_PER_HOUR: '100000',
    AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '100000',
    AI_MONTHLY_CREDITS_PER_ADDRESS: '100000000',
  });
  process.env.E2E_BASE_URL = url;
  process.env.E2E_DATA_DIR = dataDir;
  await warmUp(url);

  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await printful.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
