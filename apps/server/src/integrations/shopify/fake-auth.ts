import { randomBytes } from 'node:crypto';
import { queryHmac } from './hmac';

/**
 * The fake Shopify's tokens and install request (apis.md E1, E2, A1 (4) and the refresh grant).
 * - A public app gets expiring offline tokens only (`expiring=1`: 3600 s, with a refresh token); asking for a
 *   non-expiring one is refused unless the fake plays a custom-distribution app (`customApp`).
 * - An access token past its `expires_in` is unknown to the Admin API (401 on the fake's own clock).
 * - `grant_type=refresh_token` rotates: a new access token and a new refresh token; the old refresh token stops
 *   working at once, and a used one is refused with `invalid_grant`.
 * - `installUrl` is what Shopify sends the merchant's browser to at install: the App URL with shop, host,
 *   timestamp and hmac.
 */

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;

export type FakeGrant = { shop: string; scope: string; expiresAt: number | null };

export type OAuthAnswer = { status: number; body: Record<string, unknown> };

export type FakeRefreshGrant = { shop: string; scope: string; expiresAt: number; used: boolean };

/** Where tokens are kept: a Map, which may also recall tokens it does not hold (a sandbox kept in a database). */
export type TokenMap<V> = Map<string, V> & { recall?(token: string): Promise<V | undefined> };

export type FakeAuth = {
  /** The Admin API's view of a token: its grant, or null when unknown, revoked or expired. */
  grantOf(token: string): Promise<FakeGrant | null>;
  /** Answers `POST /admin/oauth/access_token` for a code the authorize step issued (already checked). */
  issueForCode(shop: string, scope: string, body: Record<string, string>): OAuthAnswer;
  /** Answers `POST /admin/oauth/access_token` with `grant_type=refresh_token`. */
  refresh(shop: string, body: Record<string, string>): Promise<OAuthAnswer>;
  /**
   * Answers the token-exchange grant that turns a non-expiring offline token into an expiring one (apis.md A1
   * 'Other grants'); the old token stops working.
   */
  migrate(shop: string, body: Record<string, string>): Promise<OAuthAnswer>;
  /** Every token of a shop stops working (uninstall). */
  revokeShop(shop: string): void;
  /** Refresh grants answered, in order, for tests. */
  refreshes: { shop: string; ok: boolean }[];
  /** Plays a custom-distribution app: non-expiring tokens may be asked for. */
  customApp: boolean;
  /** The App URL request Shopify makes at install: `appUrl?hmac&host&shop&timestamp` (tamper: a wrong hmac). */
  installUrl(appUrl: string, shop: string, options?: { tamper?: boolean }): string;
};

const token = (prefix: string) => `${prefix}_${randomBytes(16).toString('hex')}`;

export function createFakeAuth(options: {
  apiSecret: string;
  now: () => number;
  customApp?: boolean;
  /** Token maps to use (memory when absent). */
  access?: TokenMap<FakeGrant>;
  refreshTokens?: TokenMap<FakeRefreshGrant>;
}): FakeAuth {
  const { apiSecret, now } = options;
  const access: TokenMap<FakeGrant> = options.access ?? new Map<string, FakeGrant>();
  const refreshTokens: TokenMap<FakeRefreshGrant> = options.refreshTokens ?? new Map<string, FakeRefreshGrant>();
  const refreshes: FakeAuth['refreshes'] = [];

  const expiringPair = (shop: string, scope: string): OAuthAnswer => {
    const accessToken = token('shpat');
    const refreshToken = token('shprt');
    access.set(accessToken, { shop, scope, expiresAt: now() + ACCESS_TOKEN_TTL_S * 1000 });
    refreshTokens.set(refreshToken, { shop, scope, expiresAt: now() + REFRESH_TOKEN_TTL_S * 1000, used: false });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        scope,
        expires_in: ACCESS_TOKEN_TTL_S,
        refresh_token: refreshToken,
        refresh_token_expires_in: REFRESH_TOKEN_TTL_S,
      },
    };
  };

  const auth: FakeAuth = {
    customApp: options.customApp ?? false,
    refreshes,
    async grantOf(t) {
      const grant = access.get(t) ?? (await access.recall?.(t));
      if (!grant) return null;
      if (grant.expiresAt !== null && grant.expiresAt <= now()) return null;
      return grant;
    },
    issueForCode(shop, scope, body) {
      if (String(body.expiring ?? '0') === '1') return expiringPair(shop, scope);
      if (!auth.customApp) {
        // apis.md E1: public apps must use expiring offline tokens.
        return {
          status: 400,
          body: {
            error: 'invalid_request',
            error_description: 'This app must request an expiring offline access token (expiring=1)',
          },
        };
      }
      const accessToken = token('shpat');
      access.set(accessToken, { shop, scope, expiresAt: null });
      return { status: 200, body: { access_token: accessToken, scope } };
    },
    async refresh(shop, body) {
      const presented = body.refresh_token;
      const held = presented ? (refreshTokens.get(presented) ?? (await refreshTokens.recall?.(presented))) : undefined;
      const ok = Boolean(held && !held.used && held.shop === shop && held.expiresAt > now());
      refreshes.push({ shop, ok });
      if (!held || !ok) {
        return {
          status: 400,
          body: { error: 'invalid_grant', error_description: 'The refresh token is invalid or expired' },
        };
      }
      // Rotation: the presented refresh token is spent whatever happens next.
      if (presented) refreshTokens.set(presented, { ...held, used: true });
      return expiringPair(shop, held.scope);
    },
    async migrate(shop, body) {
      const offline = 'urn:shopify:params:oauth:token-type:offline-access-token';
      const subject = body.subject_token
        ? (access.get(body.subject_token) ?? (await access.recall?.(body.subject_token)))
        : undefined;
      const ok =
        body.subject_token_type === offline &&
        body.requested_token_type === offline &&
        String(body.expiring) === '1' &&
        subject !== undefined &&
        subject.shop === shop &&
        subject.expiresAt === null;
      if (!ok || !subject || !body.subject_token) {
        return {
          status: 400,
          body: { error: 'invalid_subject_token', error_description: 'The subject token is invalid' },
        };
      }
      access.delete(body.subject_token);
      return expiringPair(shop, subject.scope);
    },
    revokeShop(shop) {
      for (const [t, g] of access) if (g.shop === shop) access.delete(t);
      for (const [t, g] of refreshTokens) if (g.shop === shop) refreshTokens.delete(t);
    },
    installUrl(appUrl, shop, { tamper = false } = {}) {
      const params: Record<string, string> = {
        host: Buffer.from(`admin.shopify.com/store/${shop.replace('.myshopify.com', '')}`).toString('base64'),
        shop,
        timestamp: String(Math.floor(now() / 1000)),
      };
      params.hmac = queryHmac(params, apiSecret);
      if (tamper) params.hmac = `${params.hmac.slice(0, -1)}${params.hmac.endsWith('0') ? '1' : '0'}`;
      const url = new URL(appUrl);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return url.toString();
    },
  };
  return auth;
}
