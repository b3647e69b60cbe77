/**
 * Where the fake Printify keeps its shops' orders, products, uploads and webhooks: in memory for a fake of its own,
 * or in the app's database for the built-in Printify sandbox (modules/printify/printify-sandbox.ts), so a restart
 * loses nothing. Records are opaque JSON bodies; `nextAt` is when an order moves on next.
 */

export type RecordKind = 'order' | 'product' | 'upload' | 'webhook';
export type FakeRecord = {
  kind: RecordKind;
  /** The shop it belongs to (an upload: the account). */
  shopId: string;
  id: string;
  body: Record<string, unknown>;
  nextAt: Date | null;
};

export interface PrintifyFakeStore {
  /** Inserts or replaces the record. */
  put(record: FakeRecord): Promise<void>;
  get(kind: RecordKind, shopId: string, id: string): Promise<FakeRecord | null>;
  /** Oldest first. */
  list(kind: RecordKind, shopId: string): Promise<FakeRecord[]>;
  remove(kind: RecordKind, shopId: string, id: string): Promise<void>;
  /** Orders whose next step is due, taken (their `nextAt` cleared) so two ticks never move one twice. */
  claimDue(now: Date): Promise<FakeRecord[]>;
}

export function memoryFakeStore(): PrintifyFakeStore {
  const rows: FakeRecord[] = [];
  const copy = (r: FakeRecord): FakeRecord => structuredClone(r);
  const at = (kind: RecordKind, shopId: string, id: string) =>
    rows.findIndex((r) => r.kind === kind && r.shopId === shopId && r.id === id);
  return {
    async put(record) {
      const i = at(record.kind, record.shopId, record.id);
      if (i >= 0) rows[i] = copy(record);
      else rows.push(copy(record));
    },
    async get(kind, shopId, id) {
      const i = at(kind, shopId, id);
      return i >= 0 ? copy(rows[i] as FakeRecord) : null;
    },
    async list(kind, shopId) {
      return rows.filter((r) => r.kind === kind && r.shopId === shopId).map(copy);
    },
    async remove(kind, shopId, id) {
      const i = at(kind, shopId, id);
      if (i >= 0) rows.splice(i, 1);
    },
    async claimDue(now) {
      const due = rows.filter((r) => r.nextAt && r.nextAt.getTime() <= now.getTime());
      for (const r of due) r.nextAt = null;
      return due.map(copy);
    },
  };
}
