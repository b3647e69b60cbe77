import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Shopify's signatures (apis.md A1 step 3 and A4). The fake signs with the same functions the client verifies with,
 * so the two cannot drift apart.
 */

/** `^[a-z0-9][a-z0-9-]*\.myshopify\.com$`: checked before any URL is built from a shop (apis.md A1, SSRF). */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
export const isValidShopDomain = (shop: unknown): shop is string =>
  typeof shop === 'string' && shop.length <= 255 && SHOP_DOMAIN.test(shop);

/** Hex HMAC-SHA256 of the query without `hmac`/`signature`, keys sorted, values URL-encoded with %20 for spaces. */
export function queryHmac(params: Record<string, string>, secret: string): string {
  const usp = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    if (key === 'hmac' || key === 'signature') continue;
    usp.append(key, params[key] ?? '');
  }
  return createHmac('sha256', secret).update(usp.toString().replace(/\+/g, '%20')).digest('hex');
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The callback's hmac is right (compared in constant time) and its timestamp within 90 s of now. */
export function verifyQueryHmac(params: Record<string, string>, secret: string, nowMs: number): boolean {
  const given = params.hmac;
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return false;
  if (!safeEqual(queryHmac(params, secret), given.toLowerCase())) return false;
  const timestamp = Number(params.timestamp);
  return Number.isInteger(timestamp) && Math.abs(nowMs / 1000 - timestamp) <= 90;
}

/** Base64 HMAC-SHA256 of a webhook's raw body. */
export const webhookHmac = (rawBody: Buffer | string, secret: string) =>
  createHmac('sha256', secret).update(rawBody).digest('base64');

export function verifyWebhookHmac(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  return safeEqual(webhookHmac(rawBody, secret), header);
}
