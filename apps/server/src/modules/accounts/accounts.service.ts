import type { TCreatedInvite, TInvite, TInviteInfo, TMe, TMember, TMemberRole, TSession } from '@podforge/contract';
import { ErrorCode } from '@podforge/contract';
import type { Db } from '../../db/db';
import { randomToken, sha256 } from '../../lib/crypto';
import { AppError } from '../../lib/errors';
import * as repo from './accounts.repository';

export async function me(db: Db, memberId: string): Promise<TMe> {
  const member = await repo.findMember(db, memberId);
  return {
    memberId: member.id,
    workspaceId: member.workspaceId,
    role: member.role,
    name: member.name,
    passkeys: await repo.passkeyCount(db, memberId),
  };
}

export async function listSessions(db: Db, memberId: string, currentSessionId: string): Promise<TSession[]> {
  const rows = await repo.sessionsOfMember(db, memberId);
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
  await repo.findMemberSession(db, caller.memberId, sessionId);
  if (!force) {
    const others = await repo.otherWaysIn(db, caller.workspaceId, sessionId);
    if (others.sessions === 0 && others.passkeys === 0) {
      throw new AppError(
        409,
        ErrorCode.Conflict,
        'This is the last browser signed in to this workspace and nobody has a passkey: signing it out would leave the workspace unreachable. Add a passkey first, or sign out anyway.',
      );
    }
  }
  await repo.deleteMemberSession(db, caller.memberId, sessionId);
}

export async function listMembers(db: Db, workspaceId: string, callerId: string): Promise<TMember[]> {
  const rows = await repo.listMemberRows(db, workspaceId);
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
  await repo.deleteMember(db, workspaceId, memberId);
}

const toInvite = (row: repo.InviteRow): TInvite => ({
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
  const row = await repo.insertInvite(db, {
    workspaceId: caller.workspaceId,
    tokenHash: sha256(token),
    role: input.role,
    createdBy: caller.memberId,
    expiresAt: new Date(now.getTime() + input.days * 24 * 3600 * 1000),
  });
  return { ...toInvite(row), url: `${input.baseUrl}/invite/${token}` };
}

/** Invites still waiting: not accepted, not revoked, not expired. */
export async function listInvites(db: Db, now: Date, workspaceId: string): Promise<TInvite[]> {
  return (await repo.waitingInvites(db, now, workspaceId)).map(toInvite);
}

export async function revokeInvite(db: Db, now: Date, workspaceId: string, id: string): Promise<void> {
  await repo.revokeInvite(db, now, workspaceId, id);
}

/** The invite behind a token, if it can still be accepted; otherwise an error saying why not. */
async function usableInvite(db: Db, now: Date, token: string) {
  const row = await repo.inviteByTokenHash(db, sha256(token));
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
    leaves: current && !alreadyMember ? { hasPasskey: (await repo.passkeyCount(db, current.memberId)) > 0 } : null,
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
  const member = await repo.acceptInvite(db, now, invite, input.name || null);
  if (!member) {
    throw new AppError(410, ErrorCode.NotFound, 'This invite link was just used or revoked: ask for a new one.');
  }
  return member;
}
