import type { TMemberRole } from '@podforge/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { members, sessions, workspaces } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';

/** What a request's session cookie stands for. */
export type SessionOf = {
  sessionId: string;
  memberId: string;
  workspaceId: string;
  role: TMemberRole;
  lastSeenAt: Date;
};

/** A browser signed in just now: the token goes into its cookie, only its hash into the database. */
export type NewSession = SessionOf & { token: string };

/** Last seen is written at most this often per session (a write per request would be a write per request). */
const TOUCH_EVERY_MS = 5 * 60 * 1000;

/** User-Agent headers are kept short: they only tell browsers apart. */
const userAgentOf = (userAgent: string | undefined) => (userAgent ? userAgent.slice(0, 300) : null);

export async function findSession(db: Db, token: string): Promise<SessionOf | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      memberId: sessions.memberId,
      workspaceId: sessions.workspaceId,
      role: members.role,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(members, eq(members.id, sessions.memberId))
    .where(eq(sessions.tokenHash, sha256(token)))
    .limit(1);
  return row ?? null;
}

/** Records that the session (and its member) was seen, when it was last recorded more than a few minutes ago. */
export async function touchSession(db: Db, session: SessionOf, now: Date): Promise<void> {
  if (now.getTime() - session.lastSeenAt.getTime() < TOUCH_EVERY_MS) return;
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.sessionId));
  await db.update(members).set({ lastSeenAt: now }).where(eq(members.id, session.memberId));
}

/**
 * A cookie from before accounts names its workspace directly (`workspaces.token_hash`): the workspace gets an owner
 * member and this browser a session under the same token, and the old hash is cleared, once (the UPDATE claims it,
 * so two first requests at once make one member).
 */
export async function claimLegacyCookie(
  db: Db,
  token: string,
  userAgent: string | undefined,
): Promise<SessionOf | null> {
  const hash = sha256(token);
  // Most unknown tokens are signed-out sessions: a read answers them without a write.
  const [legacy] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.tokenHash, hash));
  if (!legacy) return null;
  const claimed = await db.transaction(async (tx) => {
    const [workspace] = await tx
      .update(workspaces)
      .set({ tokenHash: null })
      .where(eq(workspaces.tokenHash, hash))
      .returning({ id: workspaces.id });
    if (!workspace) return null;
    const [member] = await tx
      .insert(members)
      .values({ workspaceId: workspace.id, role: 'owner' })
      .returning({ id: members.id, lastSeenAt: members.lastSeenAt });
    if (!member) throw new Error('member insert returned nothing');
    const [session] = await tx
      .insert(sessions)
      .values({ workspaceId: workspace.id, memberId: member.id, tokenHash: hash, userAgent: userAgentOf(userAgent) })
      .returning({ id: sessions.id });
    if (!session) throw new Error('session insert returned nothing');
    return {
      sessionId: session.id,
      memberId: member.id,
      workspaceId: workspace.id,
      role: 'owner' as const,
      lastSeenAt: member.lastSeenAt,
    };
  });
  // The other of two simultaneous first requests finds the session the first one made.
  return claimed ?? findSession(db, token);
}

/** A new session for a member (a passkey sign-in, an accepted invite, a new workspace). */
export async function startSession(
  db: Db,
  member: { id: string; workspaceId: string; role: TMemberRole },
  userAgent: string | undefined,
): Promise<NewSession> {
  const token = randomToken(16);
  const [session] = await db
    .insert(sessions)
    .values({
      workspaceId: member.workspaceId,
      memberId: member.id,
      tokenHash: sha256(token),
      userAgent: userAgentOf(userAgent),
    })
    .returning({ id: sessions.id, lastSeenAt: sessions.lastSeenAt });
  if (!session) throw new Error('session insert returned nothing');
  return {
    token,
    sessionId: session.id,
    memberId: member.id,
    workspaceId: member.workspaceId,
    role: member.role,
    lastSeenAt: session.lastSeenAt,
  };
}

/**
 * A new workspace with this browser as its owner, unless the client address made `createPerHour` workspaces in the
 * last hour (counted in the database: every instance, every restart): then null.
 */
export async function createWorkspaceWithOwner(
  db: Db,
  {
    creatorKey,
    createPerHour,
    userAgent,
  }: { creatorKey: string; createPerHour: number; userAgent: string | undefined },
): Promise<NewSession | null> {
  return db.transaction(async (tx) => {
    // Both drivers (node-postgres, PGlite) answer `{ rows }`.
    const [created] = (
      (await tx.execute(sql`INSERT INTO workspaces (creator_key)
      SELECT ${creatorKey}
      WHERE (SELECT count(*) FROM workspaces WHERE creator_key = ${creatorKey}
        AND created_at > now() - interval '1 hour') < ${createPerHour}
      RETURNING id`)) as unknown as { rows: { id: string }[] }
    ).rows;
    if (!created) return null;
    const [member] = await tx
      .insert(members)
      .values({ workspaceId: created.id, role: 'owner' })
      .returning({ id: members.id });
    if (!member) throw new Error('member insert returned nothing');
    return startSession(tx as unknown as Db, { id: member.id, workspaceId: created.id, role: 'owner' }, userAgent);
  });
}

export async function deleteSession(db: Db, sessionId: string, memberId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}
