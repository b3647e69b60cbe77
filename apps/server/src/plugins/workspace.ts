import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import { ErrorCode } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { workspaces } from '../db/schema';
import { randomToken, sha256 } from '../lib/crypto';
import { AppError } from '../lib/errors';

export const SESSION_COOKIE = 'pf_session';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's workspace; every query a route makes is scoped by it. */
    workspaceId: string;
    /**
     * The client address as an HMAC (TRUST_PROXY decides which address): per-address limits key on it, and a new
     * workspace records it as its creator. The address itself is never stored.
     */
    clientKey: string;
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

type WorkspaceOptions = {
  db: Db;
  secret: string;
  /** New workspaces one client address may make per hour (WORKSPACE_CREATE_PER_HOUR). */
  createPerHour: number;
};

/**
 * No login: the session cookie is a random 128-bit token, signed, HttpOnly and SameSite=Lax. A missing, tampered
 * or unknown cookie gets a fresh workspace, never someone else's.
 */
export const workspacePlugin = fp<WorkspaceOptions>(async (app: FastifyInstance, { db, secret, createPerHour }) => {
  await app.register(cookie, { secret, hook: 'onRequest' });
  app.decorateRequest('workspaceId', '');
  app.decorateRequest('clientKey', '');
  const known = new Map<string, string>();
  const keyOf = (ip: string) => createHmac('sha256', secret).update(`client-address:${ip}`).digest('base64url');

  app.addHook('onRequest', async (request, reply) => {
    request.clientKey = keyOf(request.ip);
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
    // At most `createPerHour` new workspaces per client address, counted in the database (every instance, every
    // restart): dropping the cookie must not be a way to new limits and credits.
    const creatorKey = request.clientKey;
    // Both drivers (node-postgres, PGlite) answer `{ rows }`.
    const [created] = (
      (await db.execute(sql`INSERT INTO workspaces (token_hash, creator_key)
      SELECT ${sha256(token)}, ${creatorKey}
      WHERE (SELECT count(*) FROM workspaces WHERE creator_key = ${creatorKey}
        AND created_at > now() - interval '1 hour') < ${createPerHour}
      RETURNING id`)) as unknown as { rows: { id: string }[] }
    ).rows;
    if (!created) {
      // A page load still gets the app, which then shows the API's answer; an API call gets the 429.
      if (!request.url.startsWith('/api/')) return;
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many new workspaces from this address: at most ${createPerHour} an hour (WORKSPACE_CREATE_PER_HOUR). Keep your session cookie to go on using your workspace, or try again later.`,
      );
    }
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
