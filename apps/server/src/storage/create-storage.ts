import path from 'node:path';
import type { Config } from '../config';
import { LocalDiskStorage } from './local-disk.storage';
import { S3Storage } from './s3.storage';
import type { Storage } from './storage';

/** S3-compatible storage when S3_BUCKET is set, else local disk under DATA_DIR/files. */
export function createStorage(config: Config): Storage {
  if (config.s3) return new S3Storage(config.s3);
  return new LocalDiskStorage(path.join(config.dataDir, 'files'));
}
