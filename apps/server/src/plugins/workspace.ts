import cookie from '@fastify/cookie';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { workspaces } from '../db/schema';
import { randomToken, sha256 } from '../lib/crypto';

export const SESSION_COOKIE = 'pf_session';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's workspace; every query a route makes is scoped by it. */
    workspaceId: string;
  }
}

/** Requests for build assets and template images need no workspace. */
function needsWorkspace(request: FastifyRequest): boolean {
  const url = request.url;
  // Shopify's webhooks are signed server-to-server calls: no cookie, and no workspace to make for them.
  if (url.startsWith('/api/webhooks/')) return false;
  // The health probe: answered without a cookie, so a load balancer's checks make no workspaces.
  if (url === '/api/health') return false;
  if (url.startsWith('/api/')) return true;
  if (url.startsWith('/assets/') || url.startsWith('/templates/')) return false;
  // Page loads (no file extension) get the cookie before the app's first API calls, so parallel first calls
  // do not each create a workspace.
  // The path only: a query such as `?shop=x.myshopify.com` is no file extension.
  return !/\.[a-z0-9]+$/i.test(url.split('?')[0] ?? '');
}

/**
 * Known session cookies' workspaces, so a request costs neither a query nor the signature's HMAC before its own. The
 * key is the cookie exactly as sent, signature included, and only a cookie whose signature held and whose token was
 * found is kept: the same string is the same proof. A token's workspace never changes and workspaces are never
 * deleted, so every instance may keep this; it is bounded (oldest out first).
 */
const KNOWN_SESSIONS_MAX = 10_000;

async function resolveWorkspace(db: Db, token: string | null): Promise<string | null> {
  if (!token) return null;
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(eq(workspaces.tokenHash, sha256(token)))
    .limit(1);
  return row?.id ?? null;
}

/**
 * No login: the session cookie is a random 128-bit token, signed, HttpOnly and SameSite=Lax. A missing, tampered
 * or unknown cookie gets a fresh workspace, never someone else's.
 */
export const workspacePlugin = fp<{ db: Db; secret: string }>(async (app: FastifyInstance, { db, secret }) => {
  await app.register(cookie, { secret, hook: 'onRequest' });
  app.decorateRequest('workspaceId', '');
  const known = new Map<string, string>();

  app.addHook('onRequest', async (request, reply) => {
    if (!needsWorkspace(request)) return;
    const raw = request.cookies[SESSION_COOKIE];
    const cachedId = raw ? known.get(raw) : undefined;
    if (cachedId) {
      request.workspaceId = cachedId;
      return;
    }
    const unsigned = raw ? request.unsignCookie(raw) : null;
    const existing = await resolveWorkspace(db, unsigned?.valid ? unsigned.value : null);
    if (raw && existing) {
      if (known.size >= KNOWN_SESSIONS_MAX) known.delete(known.keys().next().value as string);
      known.set(raw, existing);
    }
    if (existing) {
      request.workspaceId = existing;
      return;
    }
    const token = randomToken(16);
    const [created] = await db
      .insert(workspaces)
      .values({ tokenHash: sha256(token) })
      .returning({ id: workspaces.id });
    if (!created) throw new Error('Workspace was not created');
    request.workspaceId = created.id;
    reply.setCookie(SESSION_COOKIE, token, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      maxAge: ONE_YEAR_SECONDS,
    });
  });
});
