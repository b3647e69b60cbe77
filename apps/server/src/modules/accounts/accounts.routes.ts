import rateLimit from '@fastify/rate-limit';
import {
  ErrorCode,
  ZAcceptInvite,
  ZCreateInvite,
  ZPasskeyLogin,
  ZPasskeyRegistration,
  ZRenamePasskey,
} from '@podforge/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import type { AccountsDeps } from './accounts.deps';
import {
  acceptInvite,
  createInvite,
  inviteInfo,
  listInvites,
  listMembers,
  listSessions,
  me,
  removeMember,
  revokeInvite,
  signOutSession,
} from './accounts.service';
import {
  listPasskeys,
  loginOptions,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
  verifyLogin,
  verifyRegistration,
} from './passkeys.service';
import { clearSessionCookie, setSessionCookies } from './session-cookie';
import { createWorkspaceWithOwner, deleteSession, startSession } from './sessions.repository';

const ZId = z.object({ id: z.uuid() });
const ZToken = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, 'not an invite token') });
const ZForce = z.object({ force: z.enum(['true', 'false']).optional() });

/** Calls a browser without a session may make, per client address and minute (each route counted alone). */
const OPEN_PER_MINUTE = 60;
/**
 * Session-optional routes: they work for a browser without a session, and any member may call them. Limited per
 * client address, as nothing else stands in front of them (sign-in challenges are rows; invite tokens are guessed
 * nowhere near, but need not be tried freely).
 */
const OPEN = {
  config: {
    session: 'optional' as const,
    minRole: 'viewer' as const,
    rateLimit: { max: OPEN_PER_MINUTE, timeWindow: 60_000 },
  },
};
/** What any member does to their own account. */
const OWN = { config: { minRole: 'viewer' as const } };
const OWNER = { config: { minRole: 'owner' as const } };

/**
 * Accounts (issue 31): who this browser is, its passkeys and sessions, the workspace's members and invites. Roles
 * are checked by the role guard (plugins/roles.ts) from each route's `minRole`.
 */
export async function accountsRoutes(app: FastifyInstance, { deps }: { deps: AccountsDeps }) {
  const { db, config } = deps;
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => request.clientKey,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many sign-in or invite requests from this address: at most ${context.max} a minute. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });
  const caller = (request: FastifyRequest) => ({
    workspaceId: request.workspaceId,
    memberId: request.memberId,
    sessionId: request.sessionId,
  });
  const current = (request: FastifyRequest) =>
    request.memberId ? { workspaceId: request.workspaceId, memberId: request.memberId } : null;

  /** Signs this browser in as `member`, leaving the workspace it was signed in to (if any). */
  const signIn = async (request: FastifyRequest, reply: FastifyReply, member: Parameters<typeof startSession>[1]) => {
    if (request.sessionId) await deleteSession(db, request.sessionId, request.memberId);
    const session = await startSession(db, member, request.headers['user-agent']);
    setSessionCookies(request, reply, session.token);
    return me(db, member.id);
  };

  app.get('/api/auth/me', async (request) => me(db, request.memberId));

  app.post('/api/auth/new-workspace', OPEN, async (request, reply) => {
    if (request.memberId) {
      throw new AppError(409, ErrorCode.Conflict, 'This browser is already signed in to a workspace.');
    }
    const created = await createWorkspaceWithOwner(db, {
      creatorKey: request.clientKey,
      createPerHour: config.workspaceCreatePerHour,
      userAgent: request.headers['user-agent'],
    });
    if (!created) {
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many new workspaces from this address: at most ${config.workspaceCreatePerHour} an hour (WORKSPACE_CREATE_PER_HOUR). Try again later.`,
      );
    }
    setSessionCookies(request, reply, created.token);
    return reply.status(201).send(await me(db, created.memberId));
  });

  // Sessions: the member's own signed-in browsers.
  app.get('/api/auth/sessions', OWN, async (request) => listSessions(db, request.memberId, request.sessionId));
  app.delete('/api/auth/sessions/:id', OWN, async (request, reply) => {
    const { id } = parseInput(ZId, request.params, 'params');
    const { force } = parseInput(ZForce, request.query, 'query');
    await signOutSession(db, caller(request), id, force === 'true');
    if (id === request.sessionId) clearSessionCookie(request, reply);
    return reply.status(204).send();
  });

  // Passkeys: the member's own.
  app.get('/api/auth/passkeys', OWN, async (request) => listPasskeys(db, request.memberId));
  app.patch('/api/auth/passkeys/:id', OWN, async (request) => {
    const { id } = parseInput(ZId, request.params, 'params');
    const { name } = parseInput(ZRenamePasskey, request.body, 'body');
    return renamePasskey(db, request.memberId, id, name);
  });
  app.delete('/api/auth/passkeys/:id', OWN, async (request, reply) => {
    const { id } = parseInput(ZId, request.params, 'params');
    await removePasskey(db, request.memberId, id);
    return reply.status(204).send();
  });
  app.post('/api/auth/passkeys/registration-options', OWN, async (request) =>
    registrationOptions(db, deps.now(), relyingParty(config, request), caller(request)),
  );
  app.post('/api/auth/passkeys/registration-verify', OWN, async (request, reply) => {
    const input = parseInput(ZPasskeyRegistration, request.body, 'body');
    const passkey = await verifyRegistration(db, deps.now(), relyingParty(config, request), caller(request), input);
    return reply.status(201).send(passkey);
  });
  app.post('/api/auth/passkeys/login-options', OPEN, async (request) =>
    loginOptions(db, deps.now(), relyingParty(config, request)),
  );
  app.post('/api/auth/passkeys/login', OPEN, async (request, reply) => {
    const input = parseInput(ZPasskeyLogin, request.body, 'body');
    const member = await verifyLogin(db, deps.now(), relyingParty(config, request), input);
    return signIn(request, reply, member);
  });

  // Members and invites.
  app.get('/api/workspace/members', async (request) => listMembers(db, request.workspaceId, request.memberId));
  app.delete('/api/workspace/members/:id', OWNER, async (request, reply) => {
    const { id } = parseInput(ZId, request.params, 'params');
    await removeMember(db, request.workspaceId, request.memberId, id);
    return reply.status(204).send();
  });
  app.get('/api/workspace/invites', OWNER, async (request) => listInvites(db, deps.now(), request.workspaceId));
  app.post('/api/workspace/invites', OWNER, async (request, reply) => {
    const input = parseInput(ZCreateInvite, request.body, 'body');
    const baseUrl = config.appUrl ?? `${request.protocol}://${request.host}`;
    const invite = await createInvite(db, deps.now(), caller(request), {
      role: input.role,
      days: input.expiresInDays ?? config.inviteDays,
      baseUrl,
    });
    return reply.status(201).send(invite);
  });
  app.delete('/api/workspace/invites/:id', OWNER, async (request, reply) => {
    const { id } = parseInput(ZId, request.params, 'params');
    await revokeInvite(db, deps.now(), request.workspaceId, id);
    return reply.status(204).send();
  });
  app.get('/api/workspace/invites/:token', OPEN, async (request) => {
    const { token } = parseInput(ZToken, request.params, 'params');
    return inviteInfo(db, deps.now(), token, current(request));
  });
  app.post('/api/workspace/invites/:token/accept', OPEN, async (request, reply) => {
    const { token } = parseInput(ZToken, request.params, 'params');
    const input = parseInput(ZAcceptInvite, request.body ?? {}, 'body');
    const member = await acceptInvite(db, deps.now(), token, { name: input.name }, current(request));
    return reply.status(201).send(await signIn(request, reply, member));
  });
}
