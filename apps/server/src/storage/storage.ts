import fs from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * Where user files live: local disk by default, S3-compatible object storage by configuration. Keys are
 * slash-separated paths that start with the workspace id, e.g. `<workspaceId>/designs/<designId>/original.png`.
 */
export interface Storage {
  /** Writes the whole stream under `key`; on failure nothing is left under `key`. Returns the bytes written. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<{ bytes: number }>;
  /** A stream of the object, or null when there is none. */
  get(key: string): Promise<{ body: Readable; bytes: number } | null>;
  /** The object as a buffer, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** Removes the object; removing a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix` (tests use it to prove nothing was left behind). */
  list(prefix: string): Promise<string[]>;
  /**
   * Stores a local file under `key` as `put` does, where it can without copying its bytes (local disk: a hard link
   * when the file is on the same file system). The file must not change afterwards; the caller may remove it.
   */
  putFile?(key: string, filePath: string, contentType: string): Promise<{ bytes: number }>;
  /** The object's path on local disk, to read in place (local disk only); null when there is no object. */
  localPath?(key: string): Promise<string | null>;
}

/** `storage.putFile` where the storage has it, else the file streamed through `put`. */
export function putLocalFile(
  storage: Storage,
  key: string,
  filePath: string,
  contentType: string,
): Promise<{ bytes: number }> {
  if (storage.putFile) return storage.putFile(key, filePath, contentType);
  return storage.put(key, fs.createReadStream(filePath), contentType);
}

/** Rejects keys that could escape the storage root or that are not ours. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(key) || key.split('/').some((part) => part === '..' || part === '')) {
    throw new Error(`Unsafe storage key: ${key}`);
  }
}
