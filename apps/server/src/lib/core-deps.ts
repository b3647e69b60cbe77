import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import type { JobQueue } from '../jobs/job-queue';
import type { Storage } from '../storage/storage';
import type { AfterStart } from './after-start';
import type { TokenCipher } from './crypto';
import type { UrlSigner } from './signed-urls';

/**
 * The app's infrastructure, as modules name it: each module declares its own deps type (`<module>.deps.ts`) as a
 * Pick of these plus the services it uses, and src/deps.ts builds one object that satisfies every module.
 */
export type CoreDeps = {
  config: Config;
  database: Database;
  db: Db;
  storage: Storage;
  cipher: TokenCipher;
  now: () => Date;
  /** Signs URLs a third party fetches without our cookie (print files for a fulfilment provider). */
  urlSigner: UrlSigner;
  /** pg-boss on the app's database: scheduled uploads, store pushes, order steps, webhook work. */
  jobs: JobQueue;
  /** What a listening server starts by itself waits here until it has answered its first request. */
  afterStart: AfterStart;
};
