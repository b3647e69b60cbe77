import { ErrorCode, type TMemberRole } from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The least role a route needs, when not the default (reads: viewer; changes: editor). 'owner' for managing
     * members and invites; 'viewer' for what any member does to their own account (passkeys, sessions).
     */
    minRole?: TMemberRole;
  }
  interface FastifyInstance {
    /** Every route with the least role it needs, as the role guard decides it (tests walk it). */
    routeRoles: { method: string; url: string; minRole: TMemberRole }[];
  }
}

const RANK: Record<TMemberRole, number> = { viewer: 0, editor: 1, owner: 2 };
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GETs that start or finish connecting a store or printer (OAuth) change the workspace like a POST. */
const CONNECTS = /^\/auth\/|\/oauth\//;

function minRoleOf(method: string, url: string, declared: TMemberRole | undefined): TMemberRole {
  if (declared) return declared;
  return SAFE_METHODS.has(method) && !CONNECTS.test(url) ? 'viewer' : 'editor';
}

/**
 * Roles, checked in one place for every call (issue 31): after the session is known, a member whose role ranks
 * below the route's answers 403 before the route runs. Viewers change nothing; only owners manage members and
 * invites. Requests without a member (webhooks, health, session-optional routes) are the routes' own business.
 */
export function registerRoleGuard(app: FastifyInstance) {
  const routeRoles: FastifyInstance['routeRoles'] = [];
  app.decorate('routeRoles', routeRoles);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const declared = (route.config as { minRole?: TMemberRole } | undefined)?.minRole;
    for (const method of methods)
      routeRoles.push({ method, url: route.url, minRole: minRoleOf(method, route.url, declared) });
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!request.role) return;
    const need = minRoleOf(
      request.method,
      request.routeOptions.url ?? request.url,
      request.routeOptions.config?.minRole,
    );
    if (RANK[request.role] >= RANK[need]) return;
    throw new AppError(
      403,
      ErrorCode.Forbidden,
      need === 'owner'
        ? "Only the workspace's owners can do this."
        : 'You are a viewer in this workspace: you can look, not change anything.',
    );
  });
}
