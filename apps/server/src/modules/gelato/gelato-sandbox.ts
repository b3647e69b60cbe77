import type { TGelatoSandboxOrder } from '@podforge/contract';
import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { gelatoSandboxOrders, gelatoSandboxWebhooks } from '../../db/schema';
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
import { PrinterSandbox } from '../printers/printer-sandbox';

/**
 * The built-in Gelato sandbox: the fake Gelato the tests use, started in this process on 127.0.0.1 on first use,
 * its orders and webhook URL in the app's database (a restart loses nothing; any instance moves them on). A
 * workspace that connects it reaches it with an API key derived from a per-process key (never stored). The shared
 * part (credential, reaching the app through `inject`) is `PrinterSandbox`.
 */

const KEY_PREFIX = 'gelsandbox_';

type Row = typeof gelatoSandboxOrders.$inferSelect;

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
      await db.transaction(async (tx) => {
        for (const o of list) {
          await tx.insert(gelatoSandboxOrders).values({
            id: o.order.id,
            account: o.account,
            orderReferenceId: o.order.orderReferenceId,
            body: seal(o.order),
            nextAt: at(o.nextAt),
          });
        }
      });
    },
    async get(account, id) {
      const [row] = await db
        .select()
        .from(gelatoSandboxOrders)
        .where(and(eq(gelatoSandboxOrders.account, account), eq(gelatoSandboxOrders.id, id)));
      return row ? open(row) : null;
    },
    async list(account) {
      const rows = await db
        .select()
        .from(gelatoSandboxOrders)
        .where(eq(gelatoSandboxOrders.account, account))
        .orderBy(asc(gelatoSandboxOrders.createdAt));
      return rows.map(open);
    },
    async byReference(account, refs) {
      if (refs.length === 0) return [];
      const rows = await db
        .select()
        .from(gelatoSandboxOrders)
        .where(and(eq(gelatoSandboxOrders.account, account), inArray(gelatoSandboxOrders.orderReferenceId, refs)))
        .orderBy(asc(gelatoSandboxOrders.createdAt));
      return rows.map(open);
    },
    async save(o) {
      await db
        .update(gelatoSandboxOrders)
        .set({ body: seal(o.order), nextAt: at(o.nextAt) })
        .where(eq(gelatoSandboxOrders.id, o.order.id));
    },
    async remove(o) {
      await db.delete(gelatoSandboxOrders).where(eq(gelatoSandboxOrders.id, o.order.id));
    },
    async claimDue(now) {
      // Taken in one statement: two instances ticking at once never move one order twice.
      const due = db
        .select({ id: gelatoSandboxOrders.id })
        .from(gelatoSandboxOrders)
        .where(and(isNotNull(gelatoSandboxOrders.nextAt), lte(gelatoSandboxOrders.nextAt, new Date(now))))
        .for('update', { skipLocked: true });
      const rows = await db
        .update(gelatoSandboxOrders)
        .set({ nextAt: null })
        .where(inArray(gelatoSandboxOrders.id, due))
        .returning();
      return rows.map((r) => ({ ...open(r), nextAt: null }));
    },
    async webhookUrl(account) {
      const [row] = await db.select().from(gelatoSandboxWebhooks).where(eq(gelatoSandboxWebhooks.account, account));
      return row?.url ?? null;
    },
    async setWebhookUrl(account, url) {
      if (!url) {
        await db.delete(gelatoSandboxWebhooks).where(eq(gelatoSandboxWebhooks.account, account));
        return;
      }
      await db
        .insert(gelatoSandboxWebhooks)
        .values({ account, url })
        .onConflictDoUpdate({ target: gelatoSandboxWebhooks.account, set: { url } });
    },
  };
}

export class GelatoSandbox extends PrinterSandbox<FakeGelato, GelatoClient> {
  constructor(
    private readonly deps: { db: Db; cipher: TokenCipher; now: () => Date; shipSeconds: number; retryDelayMs?: number },
  ) {
    super(KEY_PREFIX);
  }

  /** The API key of a workspace's sandbox account. */
  apiKeyFor(workspaceId: string): string {
    return this.tokenFor(workspaceId);
  }

  protected start(): Promise<FakeGelato> {
    return startFakeGelato({
      now: () => this.deps.now().getTime(),
      apiKeys: (key) => this.accountOf(key),
      store: dbGelatoStore(this.deps.db, this.deps.cipher),
      delays: this.delays(this.deps.shipSeconds),
      retryDelayMs: this.deps.retryDelayMs ?? 5000,
      schedule: (at) => this.onSchedule(at),
      ...this.app,
    });
  }

  protected connect(fake: FakeGelato): GelatoClient {
    return new GelatoClient({ orderBase: fake.url, productBase: fake.url, shipmentBase: fake.url });
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
}
