import type { TGelatoSandboxOrder } from '@podforge/contract';
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
import { PrinterSandbox, type PrinterSandboxDeps } from '../printers/printer-sandbox';
import * as repo from './gelato.repository';

/**
 * The built-in Gelato sandbox: the fake Gelato the tests use, started in this process on 127.0.0.1 on first use,
 * its orders and webhook URL in the app's database (a restart loses nothing; any instance moves them on). A
 * workspace that connects it reaches it with an API key derived from a per-process key (never stored). The shared
 * part (credential, reaching the app through `inject`) is `PrinterSandbox`.
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

export class GelatoSandbox extends PrinterSandbox<FakeGelato, GelatoClient> {
  constructor(private readonly deps: PrinterSandboxDeps & { retryDelayMs?: number }) {
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
