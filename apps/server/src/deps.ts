import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database } from './db/client';
import { DecodePool } from './decode/decode-pool';
import { createAiProvider } from './integrations/ai/create-provider';
import type { AiProvider } from './integrations/ai/provider';
import { JobQueue } from './jobs/job-queue';
import { AfterStart } from './lib/after-start';
import type { CoreDeps } from './lib/core-deps';
import { TokenCipher } from './lib/crypto';
import { secretFromConfigOrFile } from './lib/secrets';
import { UrlSigner } from './lib/signed-urls';
import { AiModelStatus } from './modules/ai/ai-model-status';
import { AmazonService } from './modules/amazon/amazon.service';
import { registerAmazonListingChecks } from './modules/amazon/amazon-listings';
import { registerAmazonReads } from './modules/amazon/amazon-orders';
import { bundledCatalog } from './modules/catalog/catalog.service';
import { PDF_RENDERER, SVG_SANITISER } from './modules/designs/design-decode-kind';
import { EtsyService } from './modules/etsy/etsy.service';
import { registerEtsyReads } from './modules/etsy/etsy-receipts';
import { GelatoService } from './modules/gelato/gelato.service';
import { GelatoFulfilment } from './modules/gelato/gelato-fulfilment';
import { GelatoSandbox } from './modules/gelato/gelato-sandbox';
import { registerOrderIntake } from './modules/orders/order-intake';
import { FulfilmentProviders } from './modules/printers/fulfilment-provider';
import { PrintfulService } from './modules/printful/printful.service';
import { PrintfulFulfilment } from './modules/printful/printful-fulfilment';
import { PrintfulSandbox } from './modules/printful/printful-sandbox';
import { PrintifyService } from './modules/printify/printify.service';
import { PrintifyFulfilment } from './modules/printify/printify-fulfilment';
import { PrintifySandbox } from './modules/printify/printify-sandbox';
import { ShopifyService } from './modules/shopify/shopify.service';
import { ShopifyWebhookRegistry } from './modules/shopify/shopify-webhooks';
import { StorePlatforms } from './modules/stores/store-platform';
import { WooCommerceService } from './modules/woocommerce/woocommerce.service';
import { createStorage } from './storage/create-storage';
import type { Storage } from './storage/storage';
import { meteredStorage } from './storage/usage';

/**
 * What the app's modules receive; built once per app so tests can swap any part (clock, storage, clients). Modules
 * never import this file: each declares its own deps (`modules/<x>/<x>.deps.ts`) and this object satisfies them all.
 */
export type AppDeps = CoreDeps & {
  /** Printful connection and catalogue (live when connected, bundled otherwise). */
  printful: PrintfulService;
  /** Shopify stores: real shops with SHOPIFY_API_KEY/SECRET, else the built-in sandbox; a StorePlatform. */
  shopify: ShopifyService;
  /**
   * Shopify webhook topic -> handlers, run as jobs after the receiver recorded the event. The shopify module
   * registers its topics here (app/uninstalled, products/*, and orders/*, redact topics for the order intake).
   */
  shopifyWebhooks: ShopifyWebhookRegistry;
  /** Etsy shops (ETSY_API_KEY/ETSY_SHARED_SECRET, else the built-in sandbox); a StorePlatform. */
  etsy: EtsyService;
  /** WooCommerce stores (the seller's URL and keys, or the built-in sandbox store); a StorePlatform. */
  woocommerce: WooCommerceService;
  /** Amazon sellers (AMAZON_APP_ID and the LWA client, else the built-in sandbox seller); a StorePlatform. */
  amazon: AmazonService;
  /** The StorePlatform adapters (shopify, etsy, woocommerce, amazon) by platform id: push and order code asks here. */
  stores: StorePlatforms;
  /** Writes listing text: the built-in offline provider unless the configuration names another. */
  ai: AiProvider;
  /** What the AI provider says of the configured models (shutdown dates), checked at start and daily. */
  aiStatus: AiModelStatus;
  /** Where uploaded files are decoded: child processes with time and memory limits, DECODE_CONCURRENCY at once. */
  decodePool: DecodePool;
  /** The built-in Printful sandbox: fulfilment for workspaces with no Printful account (modules/printful). */
  printfulSandbox: PrintfulSandbox;
  /** Printify: the workspace's shop by personal access token, or the built-in Printify sandbox (modules/printify). */
  printify: PrintifyService;
  printifySandbox: PrintifySandbox;
  /** Gelato connections (API key or the built-in sandbox) and catalogue (modules/gelato). */
  gelato: GelatoService;
  /** The built-in Gelato sandbox: a fake Gelato in this process, its state in the database. */
  gelatoSandbox: GelatoSandbox;
  /** The FulfilmentProvider adapters (printful, sandbox, gelato, gelato-sandbox) by provider id: orders code asks here. */
  printers: FulfilmentProviders;
};

export type BuildAppOptions = {
  config: Config;
  database: Database;
  storage?: Storage;
  now?: () => Date;
  ai?: AiProvider;
  /** false: no logging (tests); a pino logger: log there (a test that reads what was logged). */
  logger?: boolean | FastifyBaseLogger;
};

export function createDeps(options: BuildAppOptions): AppDeps {
  const { config, database } = options;
  const cipher = new TokenCipher(secretFromConfigOrFile(config.encryptionKey, config.dataDir, 'encryption.key'));
  const now = options.now ?? (() => new Date());
  // Every file stored for a workspace is recorded with its size: the storage quota (storage/usage.ts).
  const storage = meteredStorage(options.storage ?? createStorage(config), database.db);
  const ai = options.ai ?? createAiProvider(config);
  const urlSigner = new UrlSigner(secretFromConfigOrFile(config.sessionSecret, config.dataDir, 'session.secret'), now);
  const shopify = new ShopifyService({ db: database.db, cipher, config, now, storage });
  const etsy = new EtsyService({ db: database.db, cipher, config, now, storage });
  const decodePool = new DecodePool({ ...config.decode, preloadWhenIdle: [SVG_SANITISER, PDF_RENDERER] });
  const woocommerce = new WooCommerceService({ db: database.db, cipher, config, now, storage, urlSigner, decodePool });
  const amazon = new AmazonService({ db: database.db, cipher, config, now, storage, urlSigner });
  const printful = new PrintfulService({ db: database.db, cipher, config, now });
  const printfulSandbox = new PrintfulSandbox({
    db: database.db,
    cipher,
    now,
    shipSeconds: config.printfulSandboxShipSeconds,
  });
  const printifySandbox = new PrintifySandbox({
    db: database.db,
    cipher,
    now,
    shipSeconds: config.printifySandboxShipSeconds,
  });
  const printify = new PrintifyService({ db: database.db, cipher, config, now, sandbox: printifySandbox });
  const gelatoSandbox = new GelatoSandbox({
    db: database.db,
    cipher,
    now,
    shipSeconds: config.gelatoSandboxShipSeconds,
  });
  const gelato = new GelatoService({ db: database.db, cipher, config, now, sandbox: gelatoSandbox });
  const deps: AppDeps = {
    config,
    database,
    db: database.db,
    storage,
    cipher,
    now,
    printful,
    shopify,
    shopifyWebhooks: new ShopifyWebhookRegistry(),
    etsy,
    woocommerce,
    amazon,
    stores: new StorePlatforms([shopify, etsy, woocommerce, amazon]),
    ai,
    aiStatus: new AiModelStatus(ai, now),
    urlSigner,
    jobs: new JobQueue(database),
    decodePool,
    printfulSandbox,
    printify,
    printifySandbox,
    // The workspace's own Printful account when connected; else the built-in sandbox printer.
    printers: new FulfilmentProviders([
      new PrintfulFulfilment({
        id: 'printful',
        name: 'Printful',
        fallback: false,
        needsPublicUrl: true,
        connection: (workspaceId) => printful.orderConnection(workspaceId),
        catalogue: (workspaceId) => printful.catalogFor(workspaceId),
        // Browsing shows Printful's catalogue with or without the seller's account (the server's token, else bundled).
        networkCatalogue: (workspaceId) => printful.catalogFor(workspaceId),
      }),
      new PrintfulFulfilment({
        id: 'sandbox',
        name: 'Printful sandbox',
        sandbox: true,
        fallback: true,
        needsPublicUrl: false,
        connection: async (workspaceId) => ({
          client: await printfulSandbox.client(),
          token: printfulSandbox.tokenFor(workspaceId),
        }),
        catalogue: async () => bundledCatalog,
      }),
      // Printify: the workspace's shop (personal access token), or the Printify sandbox when it chose that.
      new PrintifyFulfilment({
        id: 'printify',
        name: 'Printify',
        sandbox: false,
        needsPublicUrl: true,
        connection: (workspaceId) => printify.orderConnection(workspaceId),
        catalogue: (workspaceId) => printify.catalogFor(workspaceId),
      }),
      new PrintifyFulfilment({
        id: 'printify-sandbox',
        name: 'Printify sandbox',
        sandbox: true,
        needsPublicUrl: false,
        connection: (workspaceId) => printify.sandboxConnection(workspaceId),
        catalogue: (workspaceId) => printify.catalogFor(workspaceId),
      }),
      new GelatoFulfilment({
        id: 'gelato',
        name: 'Gelato',
        sandbox: false,
        needsPublicUrl: true,
        connection: (workspaceId) => gelato.connection(workspaceId, false),
        catalogue: (workspaceId) => gelato.catalogFor(workspaceId),
        uidsOf: (ids) => gelato.uidsOf(ids),
      }),
      new GelatoFulfilment({
        id: 'gelato-sandbox',
        name: 'Gelato sandbox',
        sandbox: true,
        needsPublicUrl: false,
        connection: async (workspaceId) => {
          const conn = await gelato.connection(workspaceId, true);
          return conn && { ...conn, setWebhookUrl: (url: string) => gelatoSandbox.setWebhookUrl(workspaceId, url) };
        },
        catalogue: (workspaceId) => gelato.catalogFor(workspaceId),
        uidsOf: (ids) => gelato.uidsOf(ids),
      }),
    ]),
    gelato,
    gelatoSandbox,
    afterStart: new AfterStart(),
  };
  // Every store adapter hands its orders (webhooks, reads, Sync) to the orders module's one intake.
  registerOrderIntake(deps);
  // Etsy shops' receipts: read by a recurring job, and at once when a shop is connected or a test order placed.
  registerEtsyReads(deps);
  // Amazon sellers' orders: read by a recurring job (searchOrders), and at once on connect or a sandbox test order.
  registerAmazonReads(deps);
  // Amazon listings: their issues read by a recurring job, and soon after a push Amazon accepted.
  registerAmazonListingChecks(deps);
  return deps;
}
