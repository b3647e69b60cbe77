import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'pf_session';
/**
 * Not a secret and proves nothing: '1' once this browser has had a session. A browser that has it but no session
 * (signed out, its session revoked) is offered 'Sign in with a passkey' beside 'Start a new workspace' instead of
 * silently getting an empty workspace; one with neither cookie is a first visit and starts working at once.
 */
export const KNOWN_BROWSER_COOKIE = 'pf_known';
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

const base = (request: FastifyRequest) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: request.protocol === 'https',
  path: '/',
});

/** Signs this browser in: the session's token in the signed cookie, and the 'has had a workspace' marker. */
export function setSessionCookies(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { ...base(request), signed: true, maxAge: ONE_YEAR_SECONDS });
  reply.setCookie(KNOWN_BROWSER_COOKIE, '1', { ...base(request), maxAge: 5 * ONE_YEAR_SECONDS });
}

/** Signs this browser out; the marker stays, so its next visit offers to sign in again. */
export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, base(request));
}
