import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { LocalDiskStorage } from './local-disk.storage';
import type { S3StorageOptions } from './s3.storage';
import type { Storage } from './storage';

/**
 * S3 storage whose SDK loads on the first call: `@aws-sdk/client-s3` is a large module graph, and a server on
 * local disk (the default) should not pay for it at every start.
 */
class LazyS3Storage implements Storage {
  private loading: Promise<Storage> | null = null;
  constructor(private readonly options: S3StorageOptions) {}
  private storage(): Promise<Storage> {
    this.loading ??= import('./s3.storage').then(({ S3Storage }) => new S3Storage(this.options));
    return this.loading;
  }
  async put(key: string, body: Readable | Buffer, contentType: string) {
    return (await this.storage()).put(key, body, contentType);
  }
  async get(key: string) {
    return (await this.storage()).get(key);
  }
  async read(key: string) {
    return (await this.storage()).read(key);
  }
  async delete(key: string) {
    return (await this.storage()).delete(key);
  }
  async list(prefix: string) {
    return (await this.storage()).list(prefix);
  }
}

/** S3-compatible storage when S3_BUCKET is set, else local disk under DATA_DIR/files. */
export function createStorage(config: Config): Storage {
  if (config.s3) return new LazyS3Storage(config.s3);
  return new LocalDiskStorage(path.join(config.dataDir, 'files'));
}
