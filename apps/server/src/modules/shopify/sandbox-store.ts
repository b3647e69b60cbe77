import type { Db } from '../../db/db';
import type { FakeShopifyStore } from '../../integrations/shopify/fake-state';
import type { Storage } from '../../storage/storage';
import { deleteSandboxRecord, putSandboxRecord, sandboxRecord, sandboxRecordsWithPrefix } from './shopify.repository';

const FILE_PREFIX = 'shopify-sandbox';

/**
 * The built-in sandbox's state in the app's database (JSON per record) and its pictures in the app's storage, so
 * the sandbox survives a restart and every instance reads what another wrote.
 */
export function databaseFakeShopifyStore(db: Db, storage: Storage): FakeShopifyStore {
  return {
    async get<T>(kind: string, key: string) {
      return ((await sandboxRecord(db, kind, key)) as T | undefined) ?? null;
    },
    async list<T>(kind: string, prefix: string) {
      return (await sandboxRecordsWithPrefix(db, kind, prefix)) as T[];
    },
    async put(kind, key, value) {
      await putSandboxRecord(db, kind, key, value, new Date());
    },
    async delete(kind, key) {
      await deleteSandboxRecord(db, kind, key);
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
