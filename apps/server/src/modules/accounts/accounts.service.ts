import type { TCreatedInvite, TInvite, TInviteInfo, TMe, TMember, TMemberRole, TSession } from '@podforge/contract';
import { ErrorCode } from '@podforge/contract';
import { and, asc, count, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invites, members, passkeys, sessions } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';

const notFound = (what: string) => new AppError(404, ErrorCode.NotFound, `${what} not found`);

async function passkeyCount(db: Db, memberId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.memberId, memberId));
  return Number(row?.n ?? 0);
}

export async function me(db: Db, memberId: string): Promise<TMe> {
  const [member] = await db.select().from(members).where(eq(members.id, memberId));
  if (!member) throw notFound('Member');
  return {
    memberId: member.id,
    workspaceId: member.workspaceId,
    role: member.role,
    name: member.name,
    passkeys: await passkeyCount(db, memberId),
  };
}

export async function listSessions(db: Db, memberId: string, currentSessionId: string): Promise<TSession[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(eq(sessions.memberId, memberId))
    .orderBy(desc(sessions.lastSeenAt));
  return rows.map((row) => ({
    id: row.id,
    current: row.id === currentSessionId,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  }));
}

/**
 * Signs one of the member's browsers out. When it is the workspace's last way in (no other session of anyone, and
 * no passkey), the workspace would be out of reach for good: that answers 409 unless `force` says the member knows.
 */
export async function signOutSession(
  db: Db,
  caller: { workspaceId: string; memberId: string },
  sessionId: string,
  force: boolean,
): Promise<void> {
  const [target] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, caller.memberId)));
  if (!target) throw notFound('Session');
  if (!force) {
    const [others] = await db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.workspaceId, caller.workspaceId), ne(sessions.id, sessionId)));
    const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.workspaceId, caller.workspaceId));
    if (Number(others?.n ?? 0) === 0 && Number(keys?.n ?? 0) === 0) {
      throw new AppError(
        409,
        ErrorCode.Conflict,
        'This is the last browser signed in to this workspace and nobody has a passkey: signing it out would leave the workspace unreachable. Add a passkey first, or sign out anyway.',
      );
    }
  }
  await db.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.memberId, caller.memberId)));
}

export async function listMembers(db: Db, workspaceId: string, callerId: string): Promise<TMember[]> {
  const rows = await db
    .select({
      id: members.id,
      name: members.name,
      role: members.role,
      createdAt: members.createdAt,
      lastSeenAt: members.lastSeenAt,
      passkeys: sql<number>`(SELECT count(*) FROM passkeys p WHERE p.member_id = ${members.id})`.mapWith(Number),
    })
    .from(members)
    .where(eq(members.workspaceId, workspaceId))
    .orderBy(asc(members.createdAt));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    you: row.id === callerId,
    passkeys: row.passkeys,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  }));
}

/** The owner removes a member: their sessions end at once and their passkeys go with them. */
export async function removeMember(db: Db, workspaceId: string, callerId: string, memberId: string): Promise<void> {
  if (memberId === callerId) {
    throw new AppError(
      409,
      ErrorCode.Conflict,
      'You cannot remove yourself; another owner can, or sign your browsers out under Sessions.',
    );
  }
  const deleted = await db
    .delete(members)
    .where(and(eq(members.id, memberId), eq(members.workspaceId, workspaceId)))
    .returning({ id: members.id });
  if (deleted.length === 0) throw notFound('Member');
}

const toInvite = (row: typeof invites.$inferSelect): TInvite => ({
  id: row.id,
  role: row.role,
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

export async function createInvite(
  db: Db,
  now: Date,
  caller: { workspaceId: string; memberId: string },
  input: { role: TMemberRole; days: number; baseUrl: string },
): Promise<TCreatedInvite> {
  const token = randomToken(24);
  const [row] = await db
    .insert(invites)
    .values({
      workspaceId: caller.workspaceId,
      tokenHash: sha256(token),
      role: input.role,
      createdBy: caller.memberId,
      expiresAt: new Date(now.getTime() + input.days * 24 * 3600 * 1000),
    })
    .returning();
  if (!row) throw new Error('invite insert returned nothing');
  return { ...toInvite(row), url: `${input.baseUrl}/invite/${token}` };
}

/** Invites still waiting: not accepted, not revoked, not expired. */
export async function listInvites(db: Db, now: Date, workspaceId: string): Promise<TInvite[]> {
  const rows = await db
    .select()
    .from(invites)
    .where(
      and(
        eq(invites.workspaceId, workspaceId),
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
        gt(invites.expiresAt, now),
      ),
    )
    .orderBy(desc(invites.createdAt));
  return rows.map(toInvite);
}

export async function revokeInvite(db: Db, now: Date, workspaceId: string, id: string): Promise<void> {
  const revoked = await db
    .update(invites)
    .set({ revokedAt: now })
    .where(and(eq(invites.id, id), eq(invites.workspaceId, workspaceId), isNull(invites.acceptedAt)))
    .returning({ id: invites.id });
  if (revoked.length === 0) throw notFound('Invite');
}

/** The invite behind a token, if it can still be accepted; otherwise an error saying why not. */
async function usableInvite(db: Db, now: Date, token: string) {
  const [row] = await db
    .select()
    .from(invites)
    .where(eq(invites.tokenHash, sha256(token)));
  if (!row) throw new AppError(404, ErrorCode.NotFound, 'This invite link is not valid: ask for a new one.');
  if (row.revokedAt) throw new AppError(410, ErrorCode.NotFound, 'This invite link was revoked: ask for a new one.');
  if (row.acceptedAt)
    throw new AppError(410, ErrorCode.NotFound, 'This invite link was already used: ask for a new one.');
  if (row.expiresAt <= now) {
    throw new AppError(
      410,
      ErrorCode.NotFound,
      `This invite link expired on ${row.expiresAt.toISOString().slice(0, 10)}: ask for a new one.`,
    );
  }
  return row;
}

export async function inviteInfo(
  db: Db,
  now: Date,
  token: string,
  current: { workspaceId: string; memberId: string } | null,
): Promise<TInviteInfo> {
  const invite = await usableInvite(db, now, token);
  const alreadyMember = current?.workspaceId === invite.workspaceId;
  return {
    role: invite.role,
    expiresAt: invite.expiresAt.toISOString(),
    alreadyMember,
    leaves: current && !alreadyMember ? { hasPasskey: (await passkeyCount(db, current.memberId)) > 0 } : null,
  };
}

/** Accepts an invite once (the UPDATE claims it): a new member with the invite's role. */
export async function acceptInvite(
  db: Db,
  now: Date,
  token: string,
  input: { name: string | undefined },
  current: { workspaceId: string } | null,
): Promise<{ id: string; workspaceId: string; role: TMemberRole }> {
  const invite = await usableInvite(db, now, token);
  if (current?.workspaceId === invite.workspaceId) {
    throw new AppError(409, ErrorCode.Conflict, 'This browser is already signed in to that workspace.');
  }
  return db.transaction(async (tx) => {
    const claimed = await tx
      .update(invites)
      .set({ acceptedAt: now })
      .where(
        and(
          eq(invites.id, invite.id),
          isNull(invites.acceptedAt),
          isNull(invites.revokedAt),
          gt(invites.expiresAt, now),
        ),
      )
      .returning({ id: invites.id });
    if (claimed.length === 0) {
      throw new AppError(410, ErrorCode.NotFound, 'This invite link was just used or revoked: ask for a new one.');
    }
    const [member] = await tx
      .insert(members)
      .values({ workspaceId: invite.workspaceId, role: invite.role, name: input.name || null })
      .returning({ id: members.id, workspaceId: members.workspaceId, role: members.role });
    if (!member) throw new Error('member insert returned nothing');
    await tx.update(invites).set({ acceptedBy: member.id }).where(eq(invites.id, invite.id));
    return member;
  });
}
