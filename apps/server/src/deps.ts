import type { Config } from './config';
import type { Database, Db } from './db/client';
import { createAiProvider } from './integrations/ai/create-provider';
import type { AiProvider } from './integrations/ai/provider';
import { JobQueue } from './jobs/job-queue';
import { AfterStart } from './lib/after-start';
import { TokenCipher } from './lib/crypto';
import { secretFromConfigOrFile } from './lib/secrets';
import { UrlSigner } from './lib/signed-urls';
import { DecodePool } from './modules/designs/decode-pool';
import { EtsyService } from './modules/etsy/etsy.service';
import { registerEtsyOrders } from './modules/orders/etsy-orders';
import { PrintfulSandbox } from './modules/orders/printful-sandbox';
import { registerOrderWebhooks } from './modules/orders/shopify-webhooks';
import { registerWooOrders } from './modules/orders/woocommerce-orders';
import { PrintfulService } from './modules/printful/printful.service';
import { ShopifyService } from './modules/shopify/shopify.service';
import { ShopifyWebhookRegistry } from './modules/shopify/shopify-webhooks';
import { StorePlatforms } from './modules/stores/store-platform';
import { WooCommerceService } from './modules/woocommerce/woocommerce.service';
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
  /** Shopify stores: real shops with SHOPIFY_API_KEY/SECRET, else the built-in sandbox; a StorePlatform. */
  shopify: ShopifyService;
  /**
   * Shopify webhook topic -> handlers, run as jobs after the receiver recorded the event. Modules register their
   * topics here when the app is built (shopify: app/uninstalled, products/*; orders: orders/*, redact topics).
   */
  shopifyWebhooks: ShopifyWebhookRegistry;
  /** Etsy shops (ETSY_API_KEY/ETSY_SHARED_SECRET, else the built-in sandbox); a StorePlatform. */
  etsy: EtsyService;
  /** WooCommerce stores (the seller's URL and keys, or the built-in sandbox store); a StorePlatform. */
  woocommerce: WooCommerceService;
  /** The StorePlatform adapters (shopify, etsy, woocommerce) by platform id: push and order code asks here. */
  stores: StorePlatforms;
  /** Writes listing text: the built-in offline provider unless the configuration names another. */
  ai: AiProvider;
  /** Signs URLs a third party fetches without our cookie (print files for a fulfilment provider). */
  urlSigner: UrlSigner;
  /** pg-boss on the app's database: scheduled uploads, store pushes, order steps, webhook work. */
  jobs: JobQueue;
  /** Where uploaded files are decoded: child processes with time and memory limits, DECODE_CONCURRENCY at once. */
  decodePool: DecodePool;
  /** The built-in Printful sandbox: fulfilment for workspaces with no Printful account (modules/orders). */
  printfulSandbox: PrintfulSandbox;
  /** What a listening server starts by itself waits here until it has answered its first request (lib/after-start.ts). */
  afterStart: AfterStart;
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
  const urlSigner = new UrlSigner(secretFromConfigOrFile(config.sessionSecret, config.dataDir, 'session.secret'), now);
  const shopify = new ShopifyService({ db: database.db, cipher, config, now, storage });
  const etsy = new EtsyService({ db: database.db, cipher, config, now, storage });
  const woocommerce = new WooCommerceService({ db: database.db, cipher, config, now, storage, urlSigner });
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    storage,
    cipher,
    now,
    printful: new PrintfulService({ db: database.db, cipher, config, now }),
    shopify,
    shopifyWebhooks: new ShopifyWebhookRegistry(),
    etsy,
    woocommerce,
    stores: new StorePlatforms([shopify, etsy, woocommerce]),
    ai: options.ai ?? createAiProvider(config),
    urlSigner,
    jobs: new JobQueue(database),
    decodePool: new DecodePool(config.decode),
    printfulSandbox: new PrintfulSandbox({
      db: database.db,
      cipher,
      now,
      shipSeconds: config.printfulSandboxShipSeconds,
    }),
    afterStart: new AfterStart(),
  };
  // The orders module's topics (orders/paid, orders/cancelled, the redact topics); shopify's register in its routes.
  registerOrderWebhooks(deps.shopifyWebhooks, deps);
  // WooCommerce's order deliveries: paid orders of Podforge products go to the printer.
  registerWooOrders(deps);
  // Etsy shops' receipts: read by a recurring job, and at once when a shop is connected or a test order placed.
  registerEtsyOrders(deps);
  return deps;
}
