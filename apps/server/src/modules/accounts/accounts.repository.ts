import type { TMemberRole } from '@podforge/contract';
import { and, asc, count, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { authChallenges, invites, members, passkeys, sessions } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/**
 * The accounts' SQL: members, their passkeys and sign-in challenges, invites, and the sessions a member lists
 * (a session's own life is `sessions.repository.ts`). Every query is scoped by workspace or by the calling member;
 * another's row is "not found" (lib/find-in-workspace.ts).
 */

export type MemberRow = typeof members.$inferSelect;
export type InviteRow = typeof invites.$inferSelect;
export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengePurpose = 'registration' | 'login';

// Members

export async function findMember(db: Db, memberId: string): Promise<MemberRow> {
  return findInWorkspace('Member', memberId, async () => {
    const [row] = await db.select().from(members).where(eq(members.id, memberId));
    return row;
  });
}

/** The workspace's members, oldest first, each with their number of passkeys. */
export async function listMemberRows(db: Db, workspaceId: string) {
  return db
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
}

/** Deletes a member of the workspace (their sessions and passkeys go by cascade), or 404. */
export async function deleteMember(db: Db, workspaceId: string, memberId: string): Promise<void> {
  await findInWorkspace('Member', memberId, async () => {
    const [row] = await db
      .delete(members)
      .where(and(eq(members.id, memberId), eq(members.workspaceId, workspaceId)))
      .returning({ id: members.id });
    return row;
  });
}

// Sessions as the member lists them

export async function sessionsOfMember(db: Db, memberId: string) {
  return db.select().from(sessions).where(eq(sessions.memberId, memberId)).orderBy(desc(sessions.lastSeenAt));
}

/** The member's own session, or 404. */
export async function findMemberSession(db: Db, memberId: string, sessionId: string): Promise<{ id: string }> {
  return findInWorkspace('Session', sessionId, async () => {
    const [row] = await db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId)));
    return row;
  });
}

/** The workspace's ways in other than this session: other sessions (of anyone) and passkeys. */
export async function otherWaysIn(
  db: Db,
  workspaceId: string,
  sessionId: string,
): Promise<{ sessions: number; passkeys: number }> {
  const [others] = await db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.workspaceId, workspaceId), ne(sessions.id, sessionId)));
  const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.workspaceId, workspaceId));
  return { sessions: Number(others?.n ?? 0), passkeys: Number(keys?.n ?? 0) };
}

export async function deleteMemberSession(db: Db, memberId: string, sessionId: string): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.memberId, memberId)));
}

// Invites

export async function insertInvite(
  db: Db,
  values: { workspaceId: string; tokenHash: string; role: TMemberRole; createdBy: string; expiresAt: Date },
): Promise<InviteRow> {
  const [row] = await db.insert(invites).values(values).returning();
  if (!row) throw new Error('invite insert returned nothing');
  return row;
}

/** Invites still waiting: not accepted, not revoked, not expired; newest first. */
export async function waitingInvites(db: Db, now: Date, workspaceId: string): Promise<InviteRow[]> {
  return db
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
}

/** Revokes a not yet accepted invite of the workspace, or 404. */
export async function revokeInvite(db: Db, now: Date, workspaceId: string, id: string): Promise<void> {
  await findInWorkspace('Invite', id, async () => {
    const [row] = await db
      .update(invites)
      .set({ revokedAt: now })
      .where(and(eq(invites.id, id), eq(invites.workspaceId, workspaceId), isNull(invites.acceptedAt)))
      .returning({ id: invites.id });
    return row;
  });
}

export async function inviteByTokenHash(db: Db, tokenHash: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.tokenHash, tokenHash));
  return row;
}

/**
 * Accepts the invite once, in one transaction: the UPDATE claims it (null when it was just used, revoked or
 * expired), then the new member with its role.
 */
export async function acceptInvite(
  db: Db,
  now: Date,
  invite: InviteRow,
  name: string | null,
): Promise<{ id: string; workspaceId: string; role: TMemberRole } | null> {
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
    if (claimed.length === 0) return null;
    const [member] = await tx
      .insert(members)
      .values({ workspaceId: invite.workspaceId, role: invite.role, name })
      .returning({ id: members.id, workspaceId: members.workspaceId, role: members.role });
    if (!member) throw new Error('member insert returned nothing');
    await tx.update(invites).set({ acceptedBy: member.id }).where(eq(invites.id, invite.id));
    return member;
  });
}

// Passkeys and their challenges

export async function passkeyCount(db: Db, memberId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.memberId, memberId));
  return Number(row?.n ?? 0);
}

export async function passkeysOf(db: Db, memberId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.memberId, memberId)).orderBy(asc(passkeys.createdAt));
}

/** Renames the member's passkey, or 404. */
export async function renamePasskey(db: Db, memberId: string, id: string, name: string): Promise<PasskeyRow> {
  return findInWorkspace('Passkey', id, async () => {
    const [row] = await db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.memberId, memberId)))
      .returning();
    return row;
  });
}

/** Removes the member's passkey, or 404. */
export async function deletePasskey(db: Db, memberId: string, id: string): Promise<void> {
  await findInWorkspace('Passkey', id, async () => {
    const [row] = await db
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.memberId, memberId)))
      .returning({ id: passkeys.id });
    return row;
  });
}

/** Stores a registration's passkey; null when that credential is already registered. */
export async function insertPasskey(
  db: Db,
  values: Omit<typeof passkeys.$inferInsert, 'id' | 'createdAt' | 'lastUsedAt'>,
): Promise<PasskeyRow | null> {
  const [row] = await db
    .insert(passkeys)
    .values(values)
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  return row ?? null;
}

export async function passkeyWithMember(
  db: Db,
  credentialId: string,
): Promise<{ passkey: PasskeyRow; member: MemberRow } | undefined> {
  const [row] = await db
    .select({ passkey: passkeys, member: members })
    .from(passkeys)
    .innerJoin(members, eq(members.id, passkeys.memberId))
    .where(eq(passkeys.credentialId, credentialId));
  return row;
}

export async function recordPasskeyUse(db: Db, id: string, counter: number, now: Date): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: now }).where(eq(passkeys.id, id));
}

/** Stores a challenge; old unanswered ones go as new ones come, so the table stays small. */
export async function storeChallenge(
  db: Db,
  now: Date,
  values: { challenge: string; purpose: ChallengePurpose; sessionId: string | null; expiresAt: Date },
): Promise<void> {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  await db.insert(authChallenges).values(values);
}

/** Deletes the challenge as it is used; false when there was none to use (expired, already used, another's). */
export async function consumeChallenge(
  db: Db,
  now: Date,
  challenge: string,
  purpose: ChallengePurpose,
  sessionId: string | null,
): Promise<boolean> {
  const used = await db
    .delete(authChallenges)
    .where(
      and(
        eq(authChallenges.challenge, challenge),
        eq(authChallenges.purpose, purpose),
        gt(authChallenges.expiresAt, now),
        sessionId === null ? isNull(authChallenges.sessionId) : eq(authChallenges.sessionId, sessionId),
      ),
    )
    .returning({ challenge: authChallenges.challenge });
  return used.length > 0;
}
