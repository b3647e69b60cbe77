import { createHmac, randomBytes } from 'node:crypto';
import type { TGelatoSandboxOrder } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import type { GOrder } from '../../integrations/gelato/api';
import { GelatoClient } from '../../integrations/gelato/client';
import {
  type FakeGelato,
  type GelatoOrderStore,
  type StoredGelatoOrder,
  startFakeGelato,
} from '../../integrations/gelato/fake-server';
import { costOf } from '../../integrations/gelato/mapping';
import type { TokenCipher } from '../../lib/crypto';
import * as repo from './gelato.repository';

/**
 * The built-in Gelato sandbox: the fake Gelato the tests use, started in this process on 127.0.0.1 on first use,
 * its orders and webhook URL in the app's database (a restart loses nothing; any instance moves them on). A
 * workspace that connects it reaches it with an API key derived from a per-process key (never stored). What it
 * fetches (print files) and sends (webhooks) goes through the app itself (`inject`), as Printful's sandbox does.
 */

const KEY_PREFIX = 'gelsandbox_';

type Row = repo.SandboxOrderRow;

export function dbGelatoStore(
  db: Db,
  cipher: TokenCipher,
): GelatoOrderStore & { list(account: string): Promise<StoredGelatoOrder[]> } {
  const seal = (o: GOrder): Record<string, unknown> => {
    const { shippingAddress, ...rest } = o;
    return { ...rest, shippingAddress_enc: cipher.encrypt(JSON.stringify(shippingAddress)) };
  };
  const open = (r: Row): StoredGelatoOrder => {
    const { shippingAddress_enc: sealed, ...rest } = r.body as Record<string, unknown> & {
      shippingAddress_enc: string;
    };
    return {
      account: r.account,
      order: { ...rest, shippingAddress: JSON.parse(cipher.decrypt(sealed)) } as unknown as GOrder,
      nextAt: r.nextAt ? r.nextAt.getTime() : null,
    };
  };
  const at = (ms: number | null) => (ms === null ? null : new Date(ms));
  return {
    async insert(list) {
      await repo.insertSandboxOrders(
        db,
        list.map((o) => ({
          id: o.order.id,
          account: o.account,
          orderReferenceId: o.order.orderReferenceId,
          body: seal(o.order),
          nextAt: at(o.nextAt),
        })),
      );
    },
    async get(account, id) {
      const row = await repo.sandboxOrder(db, account, id);
      return row ? open(row) : null;
    },
    async list(account) {
      return (await repo.sandboxOrdersOf(db, account)).map(open);
    },
    async byReference(account, refs) {
      if (refs.length === 0) return [];
      return (await repo.sandboxOrdersOf(db, account, refs)).map(open);
    },
    async save(o) {
      await repo.saveSandboxOrder(db, o.order.id, { body: seal(o.order), nextAt: at(o.nextAt) });
    },
    async remove(o) {
      await repo.removeSandboxOrder(db, o.order.id);
    },
    async claimDue(now) {
      return (await repo.claimDueSandboxOrders(db, new Date(now))).map((r) => ({ ...open(r), nextAt: null }));
    },
    async webhookUrl(account) {
      return repo.sandboxWebhookUrl(db, account);
    },
    async setWebhookUrl(account, url) {
      await repo.setSandboxWebhookUrl(db, account, url);
    },
  };
}

type Inject = FastifyInstance['inject'];

export class GelatoSandbox {
  private started: Promise<FakeGelato> | null = null;
  private inject: Inject | null = null;
  private readonly key = randomBytes(32);
  private clientCache: GelatoClient | null = null;
  /** Set by the job wiring: asks for a tick at this instant. */
  onSchedule: (at: Date) => void = () => {};

  constructor(
    private readonly deps: { db: Db; cipher: TokenCipher; now: () => Date; shipSeconds: number; retryDelayMs?: number },
  ) {}

  attach(app: { inject: Inject }) {
    this.inject = app.inject.bind(app);
  }

  apiKeyFor(workspaceId: string): string {
    return `${KEY_PREFIX}${workspaceId}.${createHmac('sha256', this.key).update(workspaceId).digest('hex').slice(0, 32)}`;
  }

  private accountOf(key: string): string | null {
    if (!key.startsWith(KEY_PREFIX)) return null;
    const [workspaceId] = key.slice(KEY_PREFIX.length).split('.');
    return workspaceId && this.apiKeyFor(workspaceId) === key ? workspaceId : null;
  }

  private local(url: string) {
    const u = new URL(url);
    return u.pathname + u.search;
  }

  server(): Promise<FakeGelato> {
    this.started ??= (async () => {
      const ms = this.deps.shipSeconds * 1000;
      return startFakeGelato({
        now: () => this.deps.now().getTime(),
        apiKeys: (key) => this.accountOf(key),
        store: dbGelatoStore(this.deps.db, this.deps.cipher),
        delays: { production: Math.round(ms / 6), ship: ms, deliver: ms * 2 },
        retryDelayMs: this.deps.retryDelayMs ?? 5000,
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

  async client(): Promise<GelatoClient> {
    const fake = await this.server();
    this.clientCache ??= new GelatoClient({ orderBase: fake.url, productBase: fake.url, shipmentBase: fake.url });
    return this.clientCache;
  }

  /** The dashboard's webhook setting, for the sandbox account of this workspace. */
  async setWebhookUrl(workspaceId: string, url: string) {
    await (await this.server()).setWebhookUrl(this.apiKeyFor(workspaceId), url);
  }

  async tick(): Promise<number> {
    return (await this.server()).tick();
  }

  /** What the sandbox holds for this workspace, each Gelato order (a split order's parts each) with its parcels. */
  async orders(workspaceId: string): Promise<TGelatoSandboxOrder[]> {
    const refs = await dbGelatoStore(this.deps.db, this.deps.cipher).list(workspaceId);
    return refs.map(({ order }) => ({
      id: order.id,
      externalId: order.orderReferenceId,
      status: order.orderType === 'draft' ? 'draft' : order.fulfillmentStatus,
      orderType: order.orderType,
      connectedOrderIds: order.connectedOrderIds,
      items: order.items.map((i) => ({
        productUid: i.productUid,
        quantity: i.quantity,
        files: i.files.map((f) => f.url),
      })),
      cost: costOf([order]),
      shipments: (order.shipment?.packages ?? []).map((p) => ({
        id: p.id,
        carrier: order.shipment?.shipmentMethodName ?? null,
        trackingNumber: p.trackingCode,
        trackingUrl: p.trackingUrl,
      })),
    }));
  }

  async close() {
    const fake = await this.started;
    await fake?.close();
  }
}
