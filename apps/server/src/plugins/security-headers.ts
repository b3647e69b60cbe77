import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The SHA-256 sources (`'sha256-...'`) of the inline scripts of the built app shell, read from the file the server
 * sends: the build adds one (the screen preloader, apps/web/vite.config.ts), and a hash computed here stays right
 * whenever the build changes it.
 */
export function inlineScriptHashes(indexHtmlPath: string | null): string[] {
  if (!indexHtmlPath || !fs.existsSync(indexHtmlPath)) return [];
  const html = fs.readFileSync(indexHtmlPath, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = '', body = ''] = match;
    if (/\bsrc\s*=/i.test(attributes) || body.length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The page's policy: scripts only from this origin (and the shell's own inline scripts, by hash); styles may be
 * inline (React and Radix set style attributes); pictures also from data: and blob: (canvas previews) and https
 * (catalogue pictures), and from `imageOrigins` (a printer configured on plain http, such as a local fake, whose
 * catalogue pictures the live catalogue shows); no plugins; framed only by the configured hosts (`FRAME_ANCESTORS`),
 * by default by nobody.
 */
export function contentSecurityPolicy(
  scriptHashes: string[],
  frameAncestors: string[],
  imageOrigins: string[] = [],
): string {
  return [
    "default-src 'self'",
    `script-src 'self'${scriptHashes.map((h) => ` ${h}`).join('')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${imageOrigins.map((o) => ` ${o}`).join('')}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

/**
 * Every answer carries the security headers, HTML (the app shell and its single-page fallback) and everything else
 * (an SVG opened on its own is a document too): a CSP, nosniff, a Referrer-Policy and a Permissions-Policy. Set on
 * request, so errors and 404s carry them as well.
 */
export function registerSecurityHeaders(
  app: FastifyInstance,
  options: { indexHtmlPath: string | null; frameAncestors: string[]; imageOrigins?: string[] },
) {
  const csp = contentSecurityPolicy(
    inlineScriptHashes(options.indexHtmlPath),
    options.frameAncestors,
    options.imageOrigins ?? [],
  );
  const headers: Record<string, string> = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  };
  // Older browsers that know no frame-ancestors: the same rule where it can be said (no host list).
  if (options.frameAncestors.length === 0) headers['X-Frame-Options'] = 'DENY';
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}

export const indexHtmlOf = (webDist: string | null) => (webDist ? path.join(webDist, 'index.html') : null);
