import { and, eq, like } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { shopifySandboxRecords } from '../../db/schema';
import type { FakeShopifyStore } from '../../integrations/shopify/fake-state';
import type { Storage } from '../../storage/storage';

const FILE_PREFIX = 'shopify-sandbox';
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The built-in sandbox's state in the app's database (JSON per record) and its pictures in the app's storage, so
 * the sandbox survives a restart and every instance reads what another wrote.
 */
export function databaseFakeShopifyStore(db: Db, storage: Storage): FakeShopifyStore {
  return {
    async get<T>(kind: string, key: string) {
      const [row] = await db
        .select({ value: shopifySandboxRecords.value })
        .from(shopifySandboxRecords)
        .where(and(eq(shopifySandboxRecords.kind, kind), eq(shopifySandboxRecords.key, key)));
      return (row?.value as T | undefined) ?? null;
    },
    async list<T>(kind: string, prefix: string) {
      const rows = await db
        .select({ value: shopifySandboxRecords.value })
        .from(shopifySandboxRecords)
        .where(and(eq(shopifySandboxRecords.kind, kind), like(shopifySandboxRecords.key, likePrefix(prefix))));
      return rows.map((r) => r.value as T);
    },
    async put(kind, key, value) {
      await db
        .insert(shopifySandboxRecords)
        .values({ kind, key, value, updatedAt: new Date() })
        .onConflictDoUpdate({
          target: [shopifySandboxRecords.kind, shopifySandboxRecords.key],
          set: { value, updatedAt: new Date() },
        });
    },
    async delete(kind, key) {
      await db
        .delete(shopifySandboxRecords)
        .where(and(eq(shopifySandboxRecords.kind, kind), eq(shopifySandboxRecords.key, key)));
    },
    async putFile(key, bytes, contentType) {
      await storage.put(`${FILE_PREFIX}/${key}`, bytes, contentType);
    },
    async getFile(key) {
      const bytes = await storage.read(`${FILE_PREFIX}/${key}`).catch(() => null);
      return bytes ? { bytes, contentType: sniffImageType(bytes) } : null;
    },
  };
}

/** The staged upload's bytes carry their type (PNG or JPEG pictures); anything else is served as bytes. */
function sniffImageType(bytes: Buffer): string {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  return 'application/octet-stream';
}
