import { createHmac, randomBytes } from 'node:crypto';
import type { TPrintifySandboxOrder } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import type { PfyOrder } from '../../integrations/printify/api';
import { PrintifyClient } from '../../integrations/printify/client';
import { type FakePrintify, startFakePrintify } from '../../integrations/printify/fake-server';
import type { FakeRecord, PrintifyFakeStore, RecordKind } from '../../integrations/printify/fake-store';
import { statusOf } from '../../integrations/printify/mapping';
import type { TokenCipher } from '../../lib/crypto';
import * as repo from './printify.repository';

/**
 * The built-in Printify sandbox: the fake Printify the tests use, started in this process on 127.0.0.1 on first
 * use, with its orders, products, uploads and webhooks in the app's database (a restart loses nothing; any instance
 * moves them on). A workspace that chose it has one shop, the workspace id, reached with a token derived from a
 * per-process key (never stored). Like the Printful sandbox, what it fetches from the app (print files) and sends
 * to it (webhooks) goes through the app itself (`inject`), still as full HTTP requests through the real routes.
 */

const TOKEN_PREFIX = 'pfysandbox_';

function seal(cipher: TokenCipher, kind: RecordKind, body: Record<string, unknown>): Record<string, unknown> {
  if (kind === 'order' && body.address_to !== undefined) {
    const { address_to, ...rest } = body;
    return { ...rest, address_enc: cipher.encrypt(JSON.stringify(address_to)) };
  }
  if (kind === 'webhook' && typeof body.secret === 'string') {
    const { secret, ...rest } = body;
    return { ...rest, secret_enc: cipher.encrypt(secret) };
  }
  return body;
}

function open(cipher: TokenCipher, body: Record<string, unknown>): Record<string, unknown> {
  const { address_enc, secret_enc, ...rest } = body;
  return {
    ...rest,
    ...(typeof address_enc === 'string' ? { address_to: JSON.parse(cipher.decrypt(address_enc)) } : {}),
    ...(typeof secret_enc === 'string' ? { secret: cipher.decrypt(secret_enc) } : {}),
  };
}

export function dbFakeStore(db: Db, cipher: TokenCipher): PrintifyFakeStore {
  const toRecord = (r: repo.SandboxRecordRow): FakeRecord => ({
    kind: r.kind,
    shopId: r.shopId,
    id: r.id,
    body: open(cipher, r.body),
    nextAt: r.nextAt,
  });
  return {
    async put(record) {
      await repo.putSandboxRecord(db, { ...record, body: seal(cipher, record.kind, record.body) });
    },
    async get(kind, shopId, id) {
      const row = await repo.sandboxRecord(db, kind, shopId, id);
      return row ? toRecord(row) : null;
    },
    async list(kind, shopId) {
      return (await repo.sandboxRecordsOf(db, kind, shopId)).map(toRecord);
    },
    async remove(kind, shopId, id) {
      await repo.removeSandboxRecord(db, kind, shopId, id);
    },
    async claimDue(now) {
      return (await repo.claimDueSandboxRecords(db, now)).map(toRecord);
    },
  };
}

type Inject = FastifyInstance['inject'];

export class PrintifySandbox {
  private started: Promise<FakePrintify> | null = null;
  private inject: Inject | null = null;
  private readonly key = randomBytes(32);
  private clientCache: PrintifyClient | null = null;
  /** Set by the job wiring: asks for a tick at this instant. */
  onSchedule: (at: Date) => void = () => {};

  constructor(
    private readonly deps: {
      db: Db;
      cipher: TokenCipher;
      now: () => Date;
      /** Seconds from production to shipping; production starts at a sixth of it, delivery at twice it. */
      shipSeconds: number;
    },
  ) {}

  attach(app: { inject: Inject }) {
    this.inject = app.inject.bind(app);
  }

  tokenFor(workspaceId: string): string {
    return `${TOKEN_PREFIX}${workspaceId}.${createHmac('sha256', this.key).update(workspaceId).digest('hex').slice(0, 32)}`;
  }

  private accountOf(token: string): string | null {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const [workspaceId] = token.slice(TOKEN_PREFIX.length).split('.');
    return workspaceId && this.tokenFor(workspaceId) === token ? workspaceId : null;
  }

  private local(url: string) {
    const u = new URL(url);
    return u.pathname + u.search;
  }

  server(): Promise<FakePrintify> {
    this.started ??= (async () => {
      const ms = this.deps.shipSeconds * 1000;
      return startFakePrintify({
        now: () => this.deps.now().getTime(),
        sandboxAccount: (token) => this.accountOf(token),
        store: dbFakeStore(this.deps.db, this.deps.cipher),
        delays: { production: Math.round(ms / 6), ship: ms, deliver: ms * 2 },
        schedule: (at) => this.onSchedule(at),
        fetchFile: async (url) => {
          if (!this.inject) return false;
          const r = await this.inject({ method: 'GET', url: this.local(url) });
          return r.statusCode === 200 && String(r.headers['content-type'] ?? '').startsWith('image/');
        },
        post: async (url, body, headers) => {
          if (!this.inject) throw new Error('the sandbox is not attached to the app');
          const r = await this.inject({ method: 'POST', url: this.local(url), payload: body, headers });
          if (r.statusCode >= 300) throw new Error(`webhook answered ${r.statusCode}`);
        },
      });
    })();
    return this.started;
  }

  async client(): Promise<PrintifyClient> {
    const fake = await this.server();
    this.clientCache ??= new PrintifyClient({ apiBase: fake.url });
    return this.clientCache;
  }

  /** The connection a workspace's sandbox orders use: its one shop is the workspace. */
  async connection(workspaceId: string) {
    return { client: await this.client(), token: this.tokenFor(workspaceId), shopId: workspaceId, currency: 'USD' };
  }

  async tick(): Promise<number> {
    return (await this.server()).tick();
  }

  /** What the sandbox holds for this workspace, newest last. */
  async orders(workspaceId: string): Promise<TPrintifySandboxOrder[]> {
    const rows = await dbFakeStore(this.deps.db, this.deps.cipher).list('order', workspaceId);
    return rows.map((r) => {
      const o = r.body as unknown as PfyOrder & { external_id?: string };
      return {
        id: o.id,
        externalId: String(o.external_id ?? o.metadata?.shop_order_id ?? ''),
        status: o.status,
        podforgeStatus: statusOf(o.status),
        shipments: o.shipments.map((s) => ({
          carrier: s.carrier,
          trackingNumber: s.number,
          trackingUrl: s.url,
          deliveredAt: s.delivered_at,
        })),
        lines: o.line_items.map((li) => ({
          blueprintId: li.blueprint_id ?? null,
          printProviderId: li.print_provider_id,
          variantId: li.variant_id,
          quantity: li.quantity,
        })),
      };
    });
  }

  async close() {
    const fake = await this.started;
    await fake?.close();
  }
}
