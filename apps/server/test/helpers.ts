import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import { type Database, type Db, openDatabase } from '../src/db/client';
import { sessions } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import type { AiProvider } from '../src/integrations/ai/provider';
import { sha256 } from '../src/lib/crypto';

/**
 * Opens a fresh, migrated database: in-memory PGlite, or (TEST_DB=postgres) a new database on the server at
 * TEST_DATABASE_URL that is dropped again on close.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') {
    const database = await openDatabase({ pgliteDir: null });
    await database.migrate();
    return database;
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `podforge_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type TestApp = {
  app: FastifyInstance;
  deps: AppDeps;
  config: Config;
  dataDir: string;
  /** A browser-like caller that keeps its session cookie between requests. */
  client(): TestClient;
  close(): Promise<void>;
};

export type TestAppOptions = {
  env?: Record<string, string>;
  now?: () => Date;
  /** Replaces the configured AI provider. */
  ai?: AiProvider;
  /** Where the app logs (a pino logger); none by default. */
  logger?: FastifyBaseLogger;
  /** Runs before the app is ready, e.g. to add a route that only a test needs. */
  setup?: (app: FastifyInstance) => void;
};

export async function createTestApp(overrides: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '',
    // Tests make many workspaces and AI calls from one address (127.0.0.1): the per-address limits are tested on
    // their own (limits.api.test.ts) with low values.
    WORKSPACE_CREATE_PER_HOUR: '1000000',
    AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '1000000',
    AI_MONTHLY_CREDITS_PER_ADDRESS: '1000000000',
    ...overrides.env,
  });
  config.webDistDir = overrides.env?.WEB_DIST_DIR ?? null;
  const database = await openTestDatabase();
  const { app, deps } = await buildApp({
    config,
    database,
    logger: overrides.logger ?? false,
    ...(overrides.now ? { now: overrides.now } : {}),
    ...(overrides.ai ? { ai: overrides.ai } : {}),
  });
  overrides.setup?.(app);
  await app.ready();
  return {
    app,
    deps,
    config,
    dataDir,
    client: () => new TestClient(app),
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class TestClient {
  /** The session cookie (`pf_session=...`), or null once signed out. */
  cookie: string | null = null;
  /** The 'has had a workspace' marker (`pf_known=1`), once the server set it. */
  known: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  async request(options: InjectOptions): Promise<LightMyRequestResponse> {
    const headers = { ...(options.headers ?? {}) } as Record<string, string>;
    const jar = [this.cookie, this.known].filter(Boolean).join('; ');
    if (jar && !headers.cookie) headers.cookie = jar;
    const response = await this.app.inject({ ...options, headers });
    const setCookie = response.cookies.find((c) => c.name === 'pf_session');
    if (setCookie) this.cookie = setCookie.value ? `pf_session=${setCookie.value}` : null;
    const marker = response.cookies.find((c) => c.name === 'pf_known');
    if (marker) this.known = `pf_known=${marker.value}`;
    return response;
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }

  post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({
      method: 'POST',
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  patch(url: string, payload: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'PATCH', url, headers, payload: payload as object });
  }

  put(url: string, payload: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'PUT', url, headers, payload: payload as object });
  }

  delete(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'DELETE', url, headers });
  }

  /** The workspace id behind this client's cookie (tests insert rows for it). */
  async workspaceId(db: Db): Promise<string> {
    return (await this.session(db)).workspaceId;
  }

  /** The session row behind this client's cookie (its workspace, member and id). */
  async session(db: Db): Promise<{ id: string; workspaceId: string; memberId: string }> {
    if (!this.cookie) await this.get('/api/dashboard/stats');
    const signed = decodeURIComponent(this.cookie?.split('=').slice(1).join('=') ?? '');
    const unsigned = this.app.unsignCookie(signed);
    if (!unsigned.valid || !unsigned.value) throw new Error('session cookie is not valid');
    const [row] = await db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(unsigned.value)));
    if (!row) throw new Error('no session for this cookie');
    return row;
  }
}
