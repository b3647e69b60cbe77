import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring URLs for files a third party downloads without our session cookie (a fulfilment provider
 * fetching a print file). The key is derived from the session secret, so no further secret needs configuring, and
 * a signature made for one path and expiry is worth nothing for another.
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(
    sessionSecret: string,
    private readonly now: () => Date,
  ) {
    this.key = createHmac('sha256', sessionSecret).update('podforge signed urls v1').digest();
  }

  private signature(path: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('hex');
  }

  /** `path?expires=<unix seconds>&signature=<hex>`, valid for `ttlSeconds`. */
  sign(path: string, ttlSeconds: number): string {
    const expires = Math.floor(this.now().getTime() / 1000) + ttlSeconds;
    return `${path}?expires=${expires}&signature=${this.signature(path, expires)}`;
  }

  /** 'ok', 'expired' or 'invalid' (a signature that does not match the path and expiry). */
  verify(path: string, expires: unknown, signature: unknown): 'ok' | 'expired' | 'invalid' {
    if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires) || typeof signature !== 'string') return 'invalid';
    const expected = Buffer.from(this.signature(path, Number(expires)), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Number(expires) * 1000 < this.now().getTime() ? 'expired' : 'ok';
  }
}
