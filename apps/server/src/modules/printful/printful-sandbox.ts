import type { TPrintfulSandboxOrder } from '@podforge/contract';
import type { Db } from '../../db/db';
import { PrintfulClient } from '../../integrations/printful/client';
import type { PfOrder, PrintfulOrderStore, StoredOrder } from '../../integrations/printful/fake-orders';
import { type FakePrintful, startFakePrintful } from '../../integrations/printful/fake-server';
import type { TokenCipher } from '../../lib/crypto';
import { PrinterSandbox, type PrinterSandboxDeps } from '../printers/printer-sandbox';
import * as repo from './printful.repository';

/**
 * The built-in Printful sandbox: with no Printful account connected, a workspace's orders go here. It is the fake
 * Printful the tests use, started in this process on 127.0.0.1 on first use, with its orders and webhook settings
 * in the app's database (a restart loses nothing; any instance can move them on). Its store for a workspace is the
 * workspace id, reached with a token derived from a per-process key (never stored).
 * The shared part (credential, reaching the app through `inject`) is `PrinterSandbox`.
 */

const TOKEN_PREFIX = 'pfsandbox_';

/**
 * The sandbox keeps what the app keeps encrypted at rest encrypted too: an order's recipient (the buyer's name and
 * address) is stored as `recipient_enc` inside the body, and a webhook's signing secret as ciphertext. Rows written
 * before (clear) are still read.
 */
function sealOrder(cipher: TokenCipher, order: PfOrder): Record<string, unknown> {
  const { recipient, ...rest } = order as PfOrder & { recipient?: unknown };
  return recipient === undefined ? rest : { ...rest, recipient_enc: cipher.encrypt(JSON.stringify(recipient)) };
}

function openOrder(cipher: TokenCipher, body: Record<string, unknown>): PfOrder {
  const { recipient_enc: sealed, ...rest } = body;
  return (typeof sealed === 'string'
    ? { ...rest, recipient: JSON.parse(cipher.decrypt(sealed)) }
    : rest) as unknown as PfOrder;
}

export function dbOrderStore(db: Db, cipher: TokenCipher): PrintfulOrderStore {
  const toStored = (r: repo.SandboxOrderRow): StoredOrder => ({
    id: r.id,
    storeId: r.storeId,
    externalId: r.externalId,
    order: openOrder(cipher, r.body),
    nextAt: r.nextAt,
  });
  return {
    async insert(storeId, externalId, build) {
      let made: { id: number; order: PfOrder } | undefined;
      const existing = await repo.insertSandboxOrder(db, storeId, externalId, (id) => {
        const order = build(id);
        made = { id, order };
        return { body: sealOrder(cipher, order), status: order.status };
      });
      if (existing) return toStored(existing);
      const { id, order } = made as unknown as { id: number; order: PfOrder };
      return { id, storeId, externalId, order, nextAt: null };
    },
    async get(storeId, ref) {
      const row = await repo.sandboxOrder(db, storeId, ref);
      return row ? toStored(row) : null;
    },
    async save(o) {
      await repo.saveSandboxOrder(db, o.id, {
        body: sealOrder(cipher, o.order),
        status: o.order.status,
        nextAt: o.nextAt,
      });
    },
    async remove(o) {
      await repo.removeSandboxOrder(db, o.id);
    },
    async list(storeId) {
      return (await repo.sandboxOrdersOf(db, storeId)).map(toStored);
    },
    async claimDue(now) {
      return (await repo.claimDueSandboxOrders(db, now)).map((r) => ({ ...toStored(r), nextAt: null }));
    },
    async webhook(storeId) {
      const row = await repo.sandboxWebhook(db, storeId);
      if (!row) return null;
      const secretKey = cipher.isSealed(row.secretKey) ? cipher.decrypt(row.secretKey) : row.secretKey;
      return { url: row.url, events: row.events, secretKey, publicKey: row.publicKey };
    },
    async setWebhook(storeId, config) {
      await repo.setSandboxWebhook(db, storeId, { ...config, secretKey: cipher.encrypt(config.secretKey) });
    },
  };
}

export class PrintfulSandbox extends PrinterSandbox<FakePrintful, PrintfulClient> {
  constructor(private readonly deps: PrinterSandboxDeps) {
    super(TOKEN_PREFIX);
  }

  protected start(): Promise<FakePrintful> {
    return startFakePrintful({
      now: () => this.deps.now().getTime(),
      sandboxStore: (token) => this.accountOf(token),
      orders: {
        store: dbOrderStore(this.deps.db, this.deps.cipher),
        delays: this.delays(this.deps.shipSeconds),
        schedule: (at) => this.onSchedule(at),
        ...this.app,
      },
    });
  }

  protected connect(fake: FakePrintful): PrintfulClient {
    return new PrintfulClient({ apiBase: fake.url, oauthBase: fake.url });
  }

  /** Moves every due sandbox order one step on. */
  async tick(): Promise<number> {
    return (await this.server()).orders.tick();
  }

  /** What the sandbox holds for this workspace. */
  async orders(workspaceId: string): Promise<TPrintfulSandboxOrder[]> {
    const rows = await dbOrderStore(this.deps.db, this.deps.cipher).list(workspaceId);
    return rows
      .filter((r) => r.order.order_items)
      .map(({ id, order }) => ({
        id,
        externalId: order.external_id,
        status: order.status,
        items: order.order_items.map((i) => ({
          catalogVariantId: i.catalog_variant_id,
          quantity: i.quantity,
          retailPrice: i.retail_price ?? null,
          files: i.placements.flatMap((p) => p.layers.map((l) => ({ placement: p.placement, url: l.url }))),
        })),
        costs: order.costs ? { currency: order.costs.currency, total: order.costs.total } : null,
      }));
  }
}

export const sandboxOrderCount = (db: Db, workspaceId: string) => repo.sandboxOrderCount(db, workspaceId);
