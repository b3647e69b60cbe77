/**
 * Shopify's Admin API versions (shopify.dev/docs/api/usage/versioning): a stable version is released each quarter
 * (YYYY-01, -04, -07, -10) and supported for at least 12 months. A request to a retired version is served as the
 * oldest supported stable version, which the `X-Shopify-API-Version` response header names.
 */

/** The version Podforge asks for (SHOPIFY_API_VERSION's default); the tests' reference schema is this version's. */
export const DEFAULT_SHOPIFY_API_VERSION = '2026-04';

/** Stable versions supported on 2026-11-27, oldest first: 2025-10 left support in October 2026. */
export const SUPPORTED_SHOPIFY_API_VERSIONS = ['2026-01', '2026-04', '2026-07', '2026-10'];

/**
 * The version Shopify serves for the one asked: a supported one (or `unstable`) as asked, a retired stable one as
 * the oldest supported; null (404) for anything else: malformed, not a quarter, or not released yet.
 */
export function servedVersion(asked: string, supported: readonly string[] = SUPPORTED_SHOPIFY_API_VERSIONS) {
  if (asked === 'unstable' || supported.includes(asked)) return asked;
  const oldest = supported[0];
  if (!oldest || !/^\d{4}-(01|04|07|10)$/.test(asked)) return null;
  return asked < oldest ? oldest : null;
}
