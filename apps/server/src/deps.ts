import type { Config } from './config';
import type { Database, Db } from './db/client';
import { createAiProvider } from './integrations/ai/create-provider';
import type { AiProvider } from './integrations/ai/provider';
import { JobQueue } from './jobs/job-queue';
import { TokenCipher } from './lib/crypto';
import { secretFromConfigOrFile } from './lib/secrets';
import { UrlSigner } from './lib/signed-urls';
import { PrintfulService } from './modules/printful/printful.service';
import { ShopifyService } from './modules/shopify/shopify.service';
import { createStorage } from './storage/create-storage';
import type { Storage } from './storage/storage';

/** What routes and services need; built once per app so tests can swap any part (clock, storage, clients). */
export type AppDeps = {
  config: Config;
  database: Database;
  db: Db;
  storage: Storage;
  cipher: TokenCipher;
  now: () => Date;
  /** Printful connection and catalogue (live when connected, bundled otherwise). */
  printful: PrintfulService;
  /** Shopify stores: real shops with SHOPIFY_API_KEY/SECRET, else the built-in sandbox. */
  shopify: ShopifyService;
  /** Writes listing text: the built-in offline provider unless the configuration names another. */
  ai: AiProvider;
  /** Signs URLs a third party fetches without our cookie (print files for a fulfilment provider). */
  urlSigner: UrlSigner;
  /** pg-boss on the app's database: scheduled uploads (see modules/schedules). */
  jobs: JobQueue;
};

export type BuildAppOptions = {
  config: Config;
  database: Database;
  storage?: Storage;
  now?: () => Date;
  ai?: AiProvider;
  logger?: boolean;
};

export function createDeps(options: BuildAppOptions): AppDeps {
  const { config, database } = options;
  const cipher = new TokenCipher(secretFromConfigOrFile(config.encryptionKey, config.dataDir, 'encryption.key'));
  const now = options.now ?? (() => new Date());
  const storage = options.storage ?? createStorage(config);
  return {
    config,
    database,
    db: database.db,
    storage,
    cipher,
    now,
    printful: new PrintfulService({ db: database.db, cipher, config, now }),
    shopify: new ShopifyService({ db: database.db, cipher, config, now, storage }),
    ai: options.ai ?? createAiProvider(config),
    urlSigner: new UrlSigner(secretFromConfigOrFile(config.sessionSecret, config.dataDir, 'session.secret'), now),
    jobs: new JobQueue(database),
  };
}
