import { createHmac } from 'node:crypto';
import cookie from '@fastify/cookie';
import { ErrorCode, type TMemberRole } from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { AppError } from '../lib/errors';
import { KNOWN_BROWSER_COOKIE, SESSION_COOKIE, setSessionCookies } from '../modules/accounts/session-cookie';
import {
  claimLegacyCookie,
  createWorkspaceWithOwner,
  findSession,
  type SessionOf,
  touchSession,
} from '../modules/accounts/sessions.repository';

export { SESSION_COOKIE };

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's workspace; every query a route makes is scoped by it. '' when the request has no session. */
    workspaceId: string;
    /** The signed-in member and browser session ('' without a session), and the member's role (null without). */
    memberId: string;
    sessionId: string;
    role: TMemberRole | null;
    /**
     * The client address as an HMAC (TRUST_PROXY decides which address): per-address limits key on it, and a new
     * workspace records it as its creator. The address itself is never stored.
     */
    clientKey: string;
  }
  interface FastifyContextConfig {
    /**
     * 'optional': the route works without a session (passkey sign-in, invite acceptance, starting a workspace);
     * the session is read if there is one, and no workspace is ever made for it.
     */
    session?: 'optional';
  }
}

type Need = 'none' | 'optional' | 'required' | 'page';

/** Whether a request needs a session: API calls do, page loads may start one, assets and webhooks never. */
function needOf(request: FastifyRequest): Need {
  const url = request.url;
  // Shopify's webhooks are signed server-to-server calls: no cookie, and no workspace to make for them.
  if (url.startsWith('/api/webhooks/')) return 'none';
  // The health probe: answered without a cookie, so a load balancer's checks make no workspaces.
  if (url === '/api/health') return 'none';
  if (request.routeOptions.config?.session === 'optional') return 'optional';
  if (url.startsWith('/api/')) return 'required';
  if (url.startsWith('/assets/') || url.startsWith('/templates/')) return 'none';
  // The path only: a query such as `?shop=x.myshopify.com` is no file extension.
  const pathname = url.split('?')[0] ?? '';
  if (/\.[a-z0-9]+$/i.test(pathname)) return 'none';
  // Server routes outside /api (OAuth start and callbacks) act on the workspace.
  if (request.routeOptions.url !== undefined) return 'required';
  // An invite opened in a new browser must not make a workspace nobody wants: accepting it signs the browser in.
  if (pathname.startsWith('/invite/')) return 'optional';
  // Page loads get the cookie before the app's first API calls, so parallel first calls do not each create a
  // workspace.
  return 'page';
}

type WorkspaceOptions = {
  db: Db;
  secret: string;
  /** New workspaces one client address may make per hour (WORKSPACE_CREATE_PER_HOUR). */
  createPerHour: number;
  now: () => Date;
};

export function noSessionError(): AppError {
  return new AppError(
    401,
    ErrorCode.NoSession,
    'This browser is not signed in to a workspace: sign in with a passkey, open an invite link, or start a new workspace.',
  );
}

export function tooManyWorkspacesError(createPerHour: number): AppError {
  return new AppError(
    429,
    ErrorCode.RateLimited,
    `Too many new workspaces from this address: at most ${createPerHour} an hour (WORKSPACE_CREATE_PER_HOUR). Keep your session cookie to go on using your workspace, or try again later.`,
  );
}

/**
 * Sessions (issue 31): the signed cookie carries a random 128-bit session token whose hash names a row of
 * `sessions` (member, workspace, role), read on every request, so signing a browser out works at once on every
 * instance. A first visit (no session cookie, no `pf_known` marker) still gets a fresh workspace at once, never
 * someone else's; a browser that has had one and lost its session gets none, and the app offers to sign in.
 */
export const workspacePlugin = fp<WorkspaceOptions>(async (app: FastifyInstance, options) => {
  const { db, secret, createPerHour, now } = options;
  await app.register(cookie, { secret, hook: 'onRequest' });
  app.decorateRequest('workspaceId', '');
  app.decorateRequest('memberId', '');
  app.decorateRequest('sessionId', '');
  app.decorateRequest('role', null);
  app.decorateRequest('clientKey', '');
  const keyOf = (ip: string) => createHmac('sha256', secret).update(`client-address:${ip}`).digest('base64url');
  const use = (request: FastifyRequest, session: SessionOf) => {
    request.workspaceId = session.workspaceId;
    request.memberId = session.memberId;
    request.sessionId = session.sessionId;
    request.role = session.role;
  };

  app.addHook('onRequest', async (request, reply) => {
    request.clientKey = keyOf(request.ip);
    const need = needOf(request);
    if (need === 'none') return;
    const raw = request.cookies[SESSION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    const token = unsigned?.valid && unsigned.value ? unsigned.value : null;
    const userAgent = request.headers['user-agent'];
    const session = token ? ((await findSession(db, token)) ?? (await claimLegacyCookie(db, token, userAgent))) : null;
    if (session) {
      use(request, session);
      await touchSession(db, session, now());
      return;
    }
    if (need === 'optional') return;
    // A validly signed token that names no session was signed out; the marker says this browser had a workspace.
    const hadWorkspace = token !== null || request.cookies[KNOWN_BROWSER_COOKIE] === '1';
    if (hadWorkspace) {
      // A page load still gets the app, which offers to sign in; an API call gets the 401 it shows that for.
      if (need === 'page') return;
      throw noSessionError();
    }
    const created = await createWorkspaceWithOwner(db, { creatorKey: request.clientKey, createPerHour, userAgent });
    if (!created) {
      // A page load still gets the app, which then shows the API's answer; an API call gets the 429.
      if (need === 'page') return;
      throw tooManyWorkspacesError(createPerHour);
    }
    use(request, created);
    setSessionCookies(request, reply, created.token);
  });
});
