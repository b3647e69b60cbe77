import type { TPrintifySandboxOrder } from '@podforge/contract';
import type { Db } from '../../db/db';
import type { PfyOrder } from '../../integrations/printify/api';
import { PrintifyClient } from '../../integrations/printify/client';
import { type FakePrintify, startFakePrintify } from '../../integrations/printify/fake-server';
import type { FakeRecord, PrintifyFakeStore, RecordKind } from '../../integrations/printify/fake-store';
import { statusOf } from '../../integrations/printify/mapping';
import type { TokenCipher } from '../../lib/crypto';
import { PrinterSandbox, type PrinterSandboxDeps } from '../printers/printer-sandbox';
import * as repo from './printify.repository';

/**
 * The built-in Printify sandbox: the fake Printify the tests use, started in this process on 127.0.0.1 on first
 * use, with its orders, products, uploads and webhooks in the app's database (a restart loses nothing; any instance
 * moves them on). A workspace that chose it has one shop, the workspace id, reached with a token derived from a
 * per-process key (never stored). The shared part
 * (credential, reaching the app through `inject`) is `PrinterSandbox`.
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

export class PrintifySandbox extends PrinterSandbox<FakePrintify, PrintifyClient> {
  constructor(private readonly deps: PrinterSandboxDeps) {
    super(TOKEN_PREFIX);
  }

  protected start(): Promise<FakePrintify> {
    return startFakePrintify({
      now: () => this.deps.now().getTime(),
      sandboxAccount: (token) => this.accountOf(token),
      store: dbFakeStore(this.deps.db, this.deps.cipher),
      delays: this.delays(this.deps.shipSeconds),
      schedule: (at) => this.onSchedule(at),
      ...this.app,
    });
  }

  protected connect(fake: FakePrintify): PrintifyClient {
    return new PrintifyClient({ apiBase: fake.url });
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
}
