import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SHOPIFY_API_VERSION } from './integrations/shopify/api-versions';
import { WEB_DIST_DIR } from './lib/paths';

/**
 * The OpenAI models used when OPENAI_MODEL and OPENAI_IMAGE_MODEL are not set: active at OpenAI, with no shutdown
 * announced, on 2026-11-27 (README, 'AI models', says why these and how to choose another). gpt-6-luna is OpenAI's
 * recommended replacement for gpt-4o-mini (shut down 2027-01-14): text and image input, structured output.
 * gpt-image-2.6-flare is its recommended replacement for the gpt-image-1.x models (shut down 2026-12-01).
 */
export const DEFAULT_OPENAI_MODEL = 'gpt-6-luna';
export const DEFAULT_OPENAI_IMAGE_MODEL = 'gpt-image-2.6-flare';

/**
 * Every environment variable the server reads, in one place. The README's configuration table lists the same
 * names; keep them in step.
 */
const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'ENCRYPTION_KEY must be 64 hex characters (32 bytes)')
    .optional(),
  AI_MONTHLY_CREDITS: z.coerce.number().int().min(0).default(200),
  AI_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(1).default(60),
  AI_MONTHLY_CREDITS_PER_ADDRESS: z.coerce.number().int().min(0).default(1000),
  WORKSPACE_CREATE_PER_HOUR: z.coerce.number().int().min(1).default(20),
  STORAGE_QUOTA_MB: z.coerce.number().positive().default(2048),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  OPENAI_MODEL: z.string().min(1).default(DEFAULT_OPENAI_MODEL),
  OPENAI_IMAGE_MODEL: z.string().min(1).default(DEFAULT_OPENAI_IMAGE_MODEL),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  APP_URL: z.url().optional(),
  WEBAUTHN_RP_ID: z
    .string()
    .regex(/^[a-z0-9.-]+$/i, 'WEBAUTHN_RP_ID must be a host name such as app.example.com')
    .optional(),
  WEBAUTHN_ORIGINS: z
    .string()
    .refine(
      (v) => v.split(',').every((s) => /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$/.test(s.trim())),
      'WEBAUTHN_ORIGINS must be comma-separated origins such as https://app.example.com',
    )
    .optional(),
  INVITE_DAYS: z.coerce.number().int().min(1).max(30).default(7),
  PRINTFUL_CLIENT_ID: z.string().optional(),
  PRINTFUL_CLIENT_SECRET: z.string().optional(),
  PRINTFUL_API_BASE: z.url().default('https://api.printful.com'),
  PRINTFUL_OAUTH_BASE: z.url().default('https://www.printful.com'),
  PRINTFUL_TOKEN: z.string().optional(),
  PRINTFUL_SANDBOX_SHIP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  PRINTER_POLL_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  PRINTIFY_API_BASE: z.url().default('https://api.printify.com'),
  PRINTIFY_OAUTH_BASE: z.url().default('https://printify.com'),
  PRINTIFY_APP_ID: z.string().optional(),
  PRINTIFY_SANDBOX_SHIP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  GELATO_ORDER_BASE: z.url().default('https://order.gelatoapis.com'),
  GELATO_PRODUCT_BASE: z.url().default('https://product.gelatoapis.com'),
  GELATO_SHIPMENT_BASE: z.url().default('https://shipment.gelatoapis.com'),
  GELATO_SANDBOX_SHIP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  SHOPIFY_API_KEY: z.string().optional(),
  SHOPIFY_API_SECRET: z.string().optional(),
  SHOPIFY_API_VERSION: z
    .string()
    .regex(/^(\d{4}-\d{2}|unstable)$/, 'SHOPIFY_API_VERSION must look like 2026-04')
    .default(DEFAULT_SHOPIFY_API_VERSION),
  SHOPIFY_SCOPES: z
    .string()
    .default('write_products,write_publications,read_orders,write_merchant_managed_fulfillment_orders'),
  SHOPIFY_TOKEN_MODE: z.enum(['expiring', 'non-expiring']).default('expiring'),
  /** The app's Shopify App Store listing (https://apps.shopify.com/...): set for a public, listed app. */
  SHOPIFY_APP_STORE_URL: z
    .string()
    .refine(
      (v) => v === '' || /^https:\/\/apps\.shopify\.com\//.test(v),
      'SHOPIFY_APP_STORE_URL must be an https://apps.shopify.com/ address',
    )
    .optional(),
  SHOPIFY_SHOP_BASE_URL: z
    .string()
    .refine(
      (v) => v.includes('{shop}') && /^https?:\/\//.test(v),
      'SHOPIFY_SHOP_BASE_URL must be a URL containing {shop}',
    )
    .default('https://{shop}'),
  ETSY_API_KEY: z.string().optional(),
  ETSY_SHARED_SECRET: z.string().optional(),
  ETSY_API_BASE: z.url().default('https://openapi.etsy.com'),
  ETSY_CONNECT_BASE: z.url().default('https://www.etsy.com'),
  ETSY_TOKEN_BASE: z.url().default('https://api.etsy.com'),
  AMAZON_APP_ID: z.string().optional(),
  AMAZON_LWA_CLIENT_ID: z.string().optional(),
  AMAZON_LWA_CLIENT_SECRET: z.string().optional(),
  /** The app is still in draft in Solution Provider Portal: its consent URL carries version=beta. */
  AMAZON_APP_DRAFT: z.enum(['true', 'false']).default('false'),
  AMAZON_LWA_BASE: z.url().default('https://api.amazon.com'),
  /** `{region}` is na, eu or fe. */
  AMAZON_API_BASE: z.string().default('https://sellingpartnerapi-{region}.amazon.com'),
  /** The app's SQS queue Amazon delivers SP-API notifications to (ORDER_CHANGE, LISTINGS_ITEM_ISSUES_CHANGE). */
  AMAZON_SQS_QUEUE_URL: z.url().optional(),
  /** Another SQS endpoint than the queue URL's own host (a local SQS); the queue URL's host by default. */
  AMAZON_SQS_ENDPOINT: z.url().optional(),
  /** The queue's region; by default read from the queue URL's host (sqs.<region>.amazonaws.com). */
  AMAZON_SQS_REGION: z.string().optional(),
  /** How long one ReceiveMessage waits for a message (SQS long polling, 0 to 20 seconds). */
  AMAZON_SQS_WAIT_SECONDS: z.coerce.number().int().min(0).max(20).default(20),
  /** The app's AWS credentials for the queue (else the AWS SDK's default chain: instance role, profile). */
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  WOOCOMMERCE_STORE_BASE_URL: z
    .string()
    .refine(
      (v) => v.includes('{host}') && /^https?:\/\//.test(v),
      'WOOCOMMERCE_STORE_BASE_URL must be a URL containing {host}',
    )
    .default('https://{host}'),
  MOCKUP_TEMPLATE_WARMUP: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** How long a store push request waits for its job before answering 'running' (the browser then polls). */
  STORE_PUSH_WAIT_SECONDS: z.coerce.number().min(0).max(120).default(25),
  /** How long a stopping server lets its running jobs finish before handing them back to the queue. */
  JOB_STOP_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  JOBS_WORKER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  FRAME_ANCESTORS: z
    .string()
    .default('')
    .refine(
      (v) => v.split(/\s+/).every((s) => s === '' || s === "'self'" || /^https?:\/\/[A-Za-z0-9.*:-]+$/.test(s)),
      "FRAME_ANCESTORS must be space-separated origins such as https://admin.example.com, or 'self'",
    ),
  REQUEST_HEADER_TIMEOUT_SECONDS: z.coerce.number().min(1).max(300).default(30),
  REQUEST_BODY_IDLE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  DECODE_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  DECODE_TIME_LIMIT_SECONDS: z.coerce.number().min(0.1).max(600).default(7),
  DECODE_MEMORY_LIMIT_MB: z.coerce.number().int().min(128).max(16384).default(768),
  DECODE_POOL_MEMORY_MB: z.coerce.number().int().min(128).max(65536).default(640),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; the embedded PGlite database in `dataDir/db` when absent. */
  databaseUrl: string | undefined;
  sessionSecret: string | undefined;
  encryptionKey: string | undefined;
  aiMonthlyCredits: number;
  /** AI calls one workspace may make per minute (on this instance). */
  aiRateLimitPerMinute: number;
  /** AI calls one client address may make per minute (on this instance), whatever workspaces it uses. */
  aiRateLimitPerMinutePerAddress: number;
  /** AI credits all the workspaces one client address made may use together per calendar month (UTC). */
  aiMonthlyCreditsPerAddress: number;
  /** New workspaces (requests without a session cookie) one client address may make per hour. */
  workspaceCreatePerHour: number;
  /** What one workspace may store (designs, mockups, print files), in bytes. */
  storageQuotaBytes: number;
  /** An OpenAI-compatible API for AI content; null uses the built-in offline provider. */
  openai: { apiKey: string; baseUrl: string | undefined; model: string; imageModel: string } | null;
  logLevel: string;
  /** Built web app to serve; null serves the API only. */
  webDistDir: string | null;
  trustProxy: boolean;
  /**
   * Stalled clients: a request's headers must arrive within `headerMs`; a body being received may be silent for at
   * most `bodyIdleMs` before its connection is closed.
   */
  timeouts: { headerMs: number; bodyIdleMs: number };
  /** Hosts that may frame the app (the CSP's frame-ancestors); empty: none. */
  frameAncestors: string[];
  /** Draw every mockup template in the background after start, so no seller waits for a first drawing. */
  mockupTemplateWarmup: boolean;
  /** Run due jobs (scheduled uploads) on this instance once it listens. */
  jobsWorker: boolean;
  storePushWaitSeconds: number;
  jobStopGraceSeconds: number;
  /**
   * Decoding of uploaded files (decode/decode-pool.ts): child processes at once on this instance (default
   * the core count), each file's wall-clock and memory limits, and all the children's memory together.
   */
  decode: { concurrency: number; timeLimitMs: number; memoryLimitMb: number; poolMemoryMb: number };
  /** S3-compatible object storage for user files; null keeps them on local disk in `dataDir/files`. */
  s3: {
    bucket: string;
    endpoint: string | undefined;
    region: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
  } | null;
  /** Public base URL for OAuth redirect URLs; taken from the request when absent. */
  appUrl: string | undefined;
  /**
   * Passkeys' relying party: the host name passkeys belong to and the origins their pages are served from. Unset:
   * taken from APP_URL, else localhost only (any port), for development.
   */
  webauthn: { rpId: string; origins: string[] } | null;
  /** How long an invite link works unless the owner chooses otherwise. */
  inviteDays: number;
  printfulClientId: string | undefined;
  printfulClientSecret: string | undefined;
  printfulApiBase: string;
  printfulOauthBase: string;
  /** A private Printful token: the live catalogue for every workspace without its own connection (never orders). */
  printfulToken: string | undefined;
  /** The built-in Printful sandbox ships this long after an order is confirmed. */
  printfulSandboxShipSeconds: number;
  /** How often orders at a printer and not finished are read there (a lost webhook delays, never strands, one). */
  printerPollMinutes: number;
  /** Printify's API (the local fake in tests and e2e). */
  printifyApiBase: string;
  /** Where merchants authorise Podforge's Printify app, and the app's id (OAuth; unset: tokens only). */
  printifyOauthBase: string;
  printifyAppId: string | undefined;
  /** The built-in Printify sandbox ships this long after an order is sent to production. */
  printifySandboxShipSeconds: number;
  /** Gelato's hosts (orders v4, product v3, shipment v1); a local fake in tests. */
  gelato: { orderBase: string; productBase: string; shipmentBase: string };
  /** Seconds from confirmation to shipping in the built-in Gelato sandbox. */
  gelatoSandboxShipSeconds: number;
  /** The Shopify app's credentials; null runs the built-in Shopify sandbox instead of real stores. */
  shopify: { apiKey: string; apiSecret: string } | null;
  shopifyApiVersion: string;
  shopifyScopes: string[];
  /**
   * expiring: offline tokens that last an hour and are refreshed (public apps must, apis.md E1); non-expiring: a
   * custom-distribution app's token that never expires.
   */
  shopifyTokenMode: 'expiring' | 'non-expiring';
  /** A shop's admin base URL, `{shop}` replaced by its domain (tests point it at the local fake). */
  shopifyShopBaseUrl: string;
  /**
   * The app's App Store listing when it is a public, listed app (with real credentials): merchants install it from
   * there and Shopify sends them to the App URL with their shop, so nobody is asked to type a domain.
   */
  shopifyAppStoreUrl: string | null;
  /** The Etsy app's keystring and shared secret; null runs the built-in Etsy sandbox instead of real shops. */
  etsy: { apiKey: string; sharedSecret: string; apiBase: string; connectBase: string; tokenBase: string } | null;
  /** Where a WooCommerce store's https address is served from, `{host}` replaced (tests point it at the fake). */
  wooStoreBaseUrl: string;
  /** The SP-API application (its id and LWA client); null runs the built-in Amazon sandbox seller instead. */
  amazon: {
    applicationId: string;
    clientId: string;
    clientSecret: string;
    draft: boolean;
    lwaBase: string;
    apiBase: string;
  } | null;
  /**
   * The SQS queue Amazon's notifications arrive in (its ARN is what the destination names); null: no notifications,
   * orders and listing issues are read by polling only (they are polled anyway).
   */
  amazonSqs: {
    queueUrl: string;
    queueArn: string;
    region: string;
    endpoint?: string;
    credentials?: { accessKeyId: string; secretAccessKey: string };
    waitSeconds: number;
  } | null;
};

function webauthnOf(
  rpId: string | undefined,
  origins: string | undefined,
  appUrl: string | undefined,
): Config['webauthn'] {
  if (rpId || origins) {
    if (!rpId || !origins)
      throw new Error('Invalid configuration: set both WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS, or neither');
    return { rpId, origins: origins.split(',').map((s) => s.trim()) };
  }
  if (!appUrl) return null;
  const url = new URL(appUrl);
  return { rpId: url.hostname, origins: [url.origin] };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const shopifyKey = e.SHOPIFY_API_KEY || undefined;
  const shopifySecret = e.SHOPIFY_API_SECRET || undefined;
  if (Boolean(shopifyKey) !== Boolean(shopifySecret)) {
    throw new Error('Invalid configuration: set both SHOPIFY_API_KEY and SHOPIFY_API_SECRET, or neither (sandbox)');
  }
  const etsyKey = e.ETSY_API_KEY || undefined;
  const etsySecret = e.ETSY_SHARED_SECRET || undefined;
  if (Boolean(etsyKey) !== Boolean(etsySecret)) {
    throw new Error('Invalid configuration: set both ETSY_API_KEY and ETSY_SHARED_SECRET, or neither (sandbox)');
  }
  const amazonSet = [e.AMAZON_APP_ID, e.AMAZON_LWA_CLIENT_ID, e.AMAZON_LWA_CLIENT_SECRET].filter(Boolean).length;
  if (amazonSet !== 0 && amazonSet !== 3) {
    throw new Error(
      'Invalid configuration: set AMAZON_APP_ID, AMAZON_LWA_CLIENT_ID and AMAZON_LWA_CLIENT_SECRET together, or none (sandbox)',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    sessionSecret: e.SESSION_SECRET,
    encryptionKey: e.ENCRYPTION_KEY,
    aiMonthlyCredits: e.AI_MONTHLY_CREDITS,
    aiRateLimitPerMinute: e.AI_RATE_LIMIT_PER_MINUTE,
    aiRateLimitPerMinutePerAddress: e.AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS,
    aiMonthlyCreditsPerAddress: e.AI_MONTHLY_CREDITS_PER_ADDRESS,
    workspaceCreatePerHour: e.WORKSPACE_CREATE_PER_HOUR,
    storageQuotaBytes: Math.round(e.STORAGE_QUOTA_MB * 1024 * 1024),
    openai: e.OPENAI_API_KEY
      ? {
          apiKey: e.OPENAI_API_KEY,
          baseUrl: e.OPENAI_BASE_URL || undefined,
          model: e.OPENAI_MODEL,
          imageModel: e.OPENAI_IMAGE_MODEL,
        }
      : null,
    logLevel: e.LOG_LEVEL,
    webDistDir: e.WEB_DIST_DIR === '' ? null : (e.WEB_DIST_DIR ?? WEB_DIST_DIR),
    trustProxy: e.TRUST_PROXY,
    timeouts: {
      headerMs: e.REQUEST_HEADER_TIMEOUT_SECONDS * 1000,
      bodyIdleMs: e.REQUEST_BODY_IDLE_TIMEOUT_SECONDS * 1000,
    },
    frameAncestors: e.FRAME_ANCESTORS.split(/\s+/).filter(Boolean),
    mockupTemplateWarmup: e.MOCKUP_TEMPLATE_WARMUP,
    jobsWorker: e.JOBS_WORKER,
    storePushWaitSeconds: e.STORE_PUSH_WAIT_SECONDS,
    jobStopGraceSeconds: e.JOB_STOP_GRACE_SECONDS,
    decode: {
      concurrency: e.DECODE_CONCURRENCY ?? os.availableParallelism(),
      timeLimitMs: e.DECODE_TIME_LIMIT_SECONDS * 1000,
      memoryLimitMb: e.DECODE_MEMORY_LIMIT_MB,
      poolMemoryMb: e.DECODE_POOL_MEMORY_MB,
    },
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT || undefined,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: e.S3_FORCE_PATH_STYLE,
        }
      : null,
    appUrl: e.APP_URL ? e.APP_URL.replace(/\/$/, '') : undefined,
    webauthn: webauthnOf(e.WEBAUTHN_RP_ID, e.WEBAUTHN_ORIGINS, e.APP_URL),
    inviteDays: e.INVITE_DAYS,
    printfulClientId: e.PRINTFUL_CLIENT_ID || undefined,
    printfulClientSecret: e.PRINTFUL_CLIENT_SECRET || undefined,
    printfulApiBase: e.PRINTFUL_API_BASE,
    printfulOauthBase: e.PRINTFUL_OAUTH_BASE,
    printfulToken: e.PRINTFUL_TOKEN || undefined,
    printfulSandboxShipSeconds: e.PRINTFUL_SANDBOX_SHIP_SECONDS,
    printerPollMinutes: e.PRINTER_POLL_MINUTES,
    printifyApiBase: e.PRINTIFY_API_BASE,
    printifyOauthBase: e.PRINTIFY_OAUTH_BASE,
    printifyAppId: e.PRINTIFY_APP_ID || undefined,
    printifySandboxShipSeconds: e.PRINTIFY_SANDBOX_SHIP_SECONDS,
    gelato: {
      orderBase: e.GELATO_ORDER_BASE,
      productBase: e.GELATO_PRODUCT_BASE,
      shipmentBase: e.GELATO_SHIPMENT_BASE,
    },
    gelatoSandboxShipSeconds: e.GELATO_SANDBOX_SHIP_SECONDS,
    shopify: shopifyKey && shopifySecret ? { apiKey: shopifyKey, apiSecret: shopifySecret } : null,
    shopifyApiVersion: e.SHOPIFY_API_VERSION,
    shopifyScopes: e.SHOPIFY_SCOPES.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    shopifyShopBaseUrl: e.SHOPIFY_SHOP_BASE_URL,
    shopifyTokenMode: e.SHOPIFY_TOKEN_MODE,
    shopifyAppStoreUrl: shopifyKey && shopifySecret && e.SHOPIFY_APP_STORE_URL ? e.SHOPIFY_APP_STORE_URL : null,
    etsy:
      etsyKey && etsySecret
        ? {
            apiKey: etsyKey,
            sharedSecret: etsySecret,
            apiBase: e.ETSY_API_BASE,
            connectBase: e.ETSY_CONNECT_BASE,
            tokenBase: e.ETSY_TOKEN_BASE,
          }
        : null,
    wooStoreBaseUrl: e.WOOCOMMERCE_STORE_BASE_URL,
    amazon:
      e.AMAZON_APP_ID && e.AMAZON_LWA_CLIENT_ID && e.AMAZON_LWA_CLIENT_SECRET
        ? {
            applicationId: e.AMAZON_APP_ID,
            clientId: e.AMAZON_LWA_CLIENT_ID,
            clientSecret: e.AMAZON_LWA_CLIENT_SECRET,
            draft: e.AMAZON_APP_DRAFT === 'true',
            lwaBase: e.AMAZON_LWA_BASE,
            apiBase: e.AMAZON_API_BASE,
          }
        : null,
    amazonSqs: e.AMAZON_SQS_QUEUE_URL ? amazonSqsOf(e) : null,
  };
}

/** The queue's ARN from its URL (https://sqs.<region>.amazonaws.com/<account>/<name>), as the destination names it. */
function amazonSqsOf(e: z.infer<typeof ZEnv>): NonNullable<Config['amazonSqs']> {
  const url = new URL(e.AMAZON_SQS_QUEUE_URL ?? '');
  const [account, name] = url.pathname.split('/').filter(Boolean);
  const region = e.AMAZON_SQS_REGION ?? /^sqs\.([a-z0-9-]+)\.amazonaws\.com$/.exec(url.hostname)?.[1];
  if (!account || !name || !/^\d{12}$/.test(account))
    throw new Error(
      'Invalid configuration: AMAZON_SQS_QUEUE_URL must be a queue URL, https://sqs.<region>.amazonaws.com/<account>/<queue>',
    );
  if (!region) throw new Error('Invalid configuration: set AMAZON_SQS_REGION (the queue URL does not name its region)');
  if (Boolean(e.AWS_ACCESS_KEY_ID) !== Boolean(e.AWS_SECRET_ACCESS_KEY))
    throw new Error('Invalid configuration: set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither');
  return {
    queueUrl: e.AMAZON_SQS_QUEUE_URL ?? '',
    queueArn: `arn:aws:sqs:${region}:${account}:${name}`,
    region,
    ...(e.AMAZON_SQS_ENDPOINT ? { endpoint: e.AMAZON_SQS_ENDPOINT } : {}),
    ...(e.AWS_ACCESS_KEY_ID && e.AWS_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: e.AWS_ACCESS_KEY_ID, secretAccessKey: e.AWS_SECRET_ACCESS_KEY } }
      : {}),
    waitSeconds: e.AMAZON_SQS_WAIT_SECONDS,
  };
}
