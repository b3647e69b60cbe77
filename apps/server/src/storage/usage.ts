import type { Db } from '../db/db';
import { payloadTooLarge } from '../lib/errors';
import type { Storage } from './storage';
import { forgetStoredFile, recordStoredFile, storageUsed } from './stored-files.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The workspace a key is stored for: keys start with the workspace id (storage.ts); others (sandboxes') have none. */
const workspaceOfKey = (key: string): string | null => {
  const first = key.split('/', 1)[0] ?? '';
  return UUID.test(first) ? first : null;
};

/**
 * Storage that records every object it writes for a workspace in `stored_files` (key and size), and forgets it when
 * the object is deleted: what a workspace uses is the sum of its rows, whatever module stored the file (designs,
 * mockups, print files). A write that fails records nothing.
 */
export function meteredStorage(storage: Storage, db: Db): Storage {
  const record = async (key: string, bytes: number) => {
    const workspaceId = workspaceOfKey(key);
    if (!workspaceId) return;
    await recordStoredFile(db, key, workspaceId, bytes);
  };
  const metered: Storage = {
    async put(key, body, contentType) {
      const written = await storage.put(key, body, contentType);
      await record(key, written.bytes);
      return written;
    },
    get: (key) => storage.get(key),
    read: (key) => storage.read(key),
    async delete(key) {
      await storage.delete(key);
      if (workspaceOfKey(key)) await forgetStoredFile(db, key);
    },
    list: (prefix) => storage.list(prefix),
  };
  const { putFile, localPath } = storage;
  if (putFile) {
    metered.putFile = async (key, filePath, contentType) => {
      const written = await putFile.call(storage, key, filePath, contentType);
      await record(key, written.bytes);
      return written;
    };
  }
  if (localPath) metered.localPath = (key) => localPath.call(storage, key);
  return metered;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/**
 * 413 when storing `incoming` more bytes would take the workspace past its quota (`STORAGE_QUOTA_MB`), naming the
 * quota and what is used. Checked before an upload is decoded; what the upload's derived files add (print PNG,
 * thumbnail) and mockups or print files drawn later count once stored, and the next upload is refused. With
 * `incoming` 0 (new mockups, whose size is known only once drawn): refused once the quota is reached.
 */
export async function assertStorageRoom(
  db: Db,
  workspaceId: string,
  options: { quotaBytes: number; incoming: number; name: string },
): Promise<void> {
  const used = await storageUsed(db, workspaceId);
  if (options.incoming === 0) {
    if (used < options.quotaBytes) return;
    throw payloadTooLarge(
      `${options.name}: this workspace's storage quota of ${mb(options.quotaBytes)} is full (${mb(used)} used). Delete designs or products to make room.`,
    );
  }
  if (used + options.incoming <= options.quotaBytes) return;
  throw payloadTooLarge(
    `${options.name} (${mb(options.incoming)}) would pass this workspace's storage quota of ${mb(options.quotaBytes)}: ${mb(used)} is used. Delete designs or products to make room.`,
  );
}
