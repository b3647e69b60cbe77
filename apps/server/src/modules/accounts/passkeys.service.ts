import { ErrorCode, type TPasskey } from '@podforge/contract';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { authChallenges, members, passkeys } from '../../db/schema';
import { AppError, badRequest } from '../../lib/errors';

/** A challenge must be answered within this long, once. */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const RP_NAME = 'Podforge';

type RelyingParty = { rpID: string; origins: string[] };

/**
 * Where passkeys belong: WEBAUTHN_RP_ID / WEBAUTHN_ORIGINS (or APP_URL); unset, localhost at any port, so a
 * development server works out of the box and no other host can be claimed by a forged Host header.
 */
export function relyingParty(config: Config, request: FastifyRequest): RelyingParty {
  if (config.webauthn) return { rpID: config.webauthn.rpId, origins: config.webauthn.origins };
  if (request.hostname === 'localhost') {
    // `new URL` drops a default port, as the browser's origin does.
    return { rpID: 'localhost', origins: [new URL(`${request.protocol}://${request.host}`).origin] };
  }
  throw new AppError(
    501,
    ErrorCode.NotImplemented,
    `Passkeys need this server's public address: set APP_URL (or WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS); without them they work on localhost only, not ${request.hostname}.`,
  );
}

/** The challenge the browser signed, read from its clientDataJSON (the library checks the rest). */
function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string') throw badRequest('response.response.clientDataJSON is missing');
  try {
    const parsed = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof parsed.challenge === 'string' && parsed.challenge) return parsed.challenge;
  } catch {
    // answered below
  }
  throw badRequest('response.response.clientDataJSON is not a WebAuthn client data object');
}

async function storeChallenge(
  db: Db,
  now: Date,
  challenge: string,
  purpose: 'registration' | 'login',
  sessionId: string | null,
) {
  // Old unanswered challenges go as new ones come, so the table stays small.
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, now));
  await db.insert(authChallenges).values({
    challenge,
    purpose,
    sessionId,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

/** Deletes the challenge as it is used: a second answer to the same challenge finds nothing. */
async function consumeChallenge(
  db: Db,
  now: Date,
  challenge: string,
  purpose: 'registration' | 'login',
  sessionId: string | null,
): Promise<void> {
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
  if (used.length === 0) {
    throw new AppError(400, ErrorCode.BadRequest, 'This passkey request expired or was already used: start again.');
  }
}

const toPasskey = (row: typeof passkeys.$inferSelect): TPasskey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(db: Db, memberId: string): Promise<TPasskey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.memberId, memberId)).orderBy(asc(passkeys.createdAt));
  return rows.map(toPasskey);
}

export async function renamePasskey(db: Db, memberId: string, id: string, name: string): Promise<TPasskey> {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.memberId, memberId)))
    .returning();
  if (!row) throw new AppError(404, ErrorCode.NotFound, 'Passkey not found');
  return toPasskey(row);
}

export async function removePasskey(db: Db, memberId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.memberId, memberId)))
    .returning({ id: passkeys.id });
  if (deleted.length === 0) throw new AppError(404, ErrorCode.NotFound, 'Passkey not found');
}

type Caller = { workspaceId: string; memberId: string; sessionId: string };

export async function registrationOptions(db: Db, now: Date, rp: RelyingParty, caller: Caller) {
  const [member] = await db.select().from(members).where(eq(members.id, caller.memberId));
  if (!member) throw new AppError(404, ErrorCode.NotFound, 'Member not found');
  const existing = await db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.memberId, caller.memberId));
  const label = member.name ?? `${member.role} of workspace ${caller.workspaceId.slice(0, 8)}`;
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    // The member's id: every passkey of one person is one account to the authenticator.
    userID: new TextEncoder().encode(member.id),
    userName: `Podforge · ${label}`,
    userDisplayName: `Podforge · ${label}`,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({
      id: p.credentialId,
      ...(p.transports ? { transports: p.transports } : {}),
    })),
    // Discoverable, so 'Sign in with a passkey' needs no user name.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(db, now, options.challenge, 'registration', caller.sessionId);
  return options;
}

export async function verifyRegistration(
  db: Db,
  now: Date,
  rp: RelyingParty,
  caller: Caller,
  input: { name: string; response: Record<string, unknown> },
): Promise<TPasskey> {
  const response = input.response as unknown as RegistrationResponseJSON;
  const challenge = challengeOf(response);
  await consumeChallenge(db, now, challenge, 'registration', caller.sessionId);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    throw badRequest(`The passkey could not be verified: ${(error as Error).message}`);
  }
  if (!verified.verified) throw badRequest('The passkey could not be verified');
  const { credential } = verified.registrationInfo;
  const [row] = await db
    .insert(passkeys)
    .values({
      workspaceId: caller.workspaceId,
      memberId: caller.memberId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? null,
      name: input.name,
    })
    .onConflictDoNothing({ target: passkeys.credentialId })
    .returning();
  if (!row) throw new AppError(409, ErrorCode.Conflict, 'This passkey is already registered');
  return toPasskey(row);
}

export async function loginOptions(db: Db, now: Date, rp: RelyingParty) {
  // No allowCredentials: the authenticator offers the passkeys it holds for this site.
  const options = await generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'preferred' });
  await storeChallenge(db, now, options.challenge, 'login', null);
  return options;
}

/** Checks a sign-in; answers the member it signs in as. */
export async function verifyLogin(
  db: Db,
  now: Date,
  rp: RelyingParty,
  input: { response: Record<string, unknown> },
): Promise<{ id: string; workspaceId: string; role: (typeof members.$inferSelect)['role'] }> {
  const response = input.response as unknown as AuthenticationResponseJSON;
  const challenge = challengeOf(response);
  await consumeChallenge(db, now, challenge, 'login', null);
  const [found] = await db
    .select({ passkey: passkeys, member: members })
    .from(passkeys)
    .innerJoin(members, eq(members.id, passkeys.memberId))
    .where(eq(passkeys.credentialId, response.id));
  if (!found) {
    throw new AppError(
      401,
      ErrorCode.Unauthorized,
      'This passkey is not known here: it may have been removed from its workspace.',
    );
  }
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      credential: {
        id: found.passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(found.passkey.publicKey, 'base64url')),
        counter: found.passkey.counter,
        ...(found.passkey.transports
          ? { transports: found.passkey.transports as NonNullable<RegistrationResponseJSON['response']['transports']> }
          : {}),
      },
      requireUserVerification: false,
    });
  } catch (error) {
    throw new AppError(401, ErrorCode.Unauthorized, `The passkey sign-in failed: ${(error as Error).message}`);
  }
  if (!verified.verified) throw new AppError(401, ErrorCode.Unauthorized, 'The passkey sign-in failed');
  // The library refused a counter that did not move forward (a cloned authenticator); the new one is kept.
  await db
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: now })
    .where(eq(passkeys.id, found.passkey.id));
  return { id: found.member.id, workspaceId: found.member.workspaceId, role: found.member.role };
}
