import { ErrorCode, type TPasskey } from '@podforge/contract';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/db';
import { AppError, badRequest } from '../../lib/errors';
import type { ChallengePurpose, MemberRow, PasskeyRow } from './accounts.repository';
import * as repo from './accounts.repository';

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
  purpose: ChallengePurpose,
  sessionId: string | null,
) {
  await repo.storeChallenge(db, now, {
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
  purpose: ChallengePurpose,
  sessionId: string | null,
): Promise<void> {
  if (!(await repo.consumeChallenge(db, now, challenge, purpose, sessionId))) {
    throw new AppError(400, ErrorCode.BadRequest, 'This passkey request expired or was already used: start again.');
  }
}

const toPasskey = (row: PasskeyRow): TPasskey => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(db: Db, memberId: string): Promise<TPasskey[]> {
  return (await repo.passkeysOf(db, memberId)).map(toPasskey);
}

export async function renamePasskey(db: Db, memberId: string, id: string, name: string): Promise<TPasskey> {
  return toPasskey(await repo.renamePasskey(db, memberId, id, name));
}

export async function removePasskey(db: Db, memberId: string, id: string): Promise<void> {
  await repo.deletePasskey(db, memberId, id);
}

type Caller = { workspaceId: string; memberId: string; sessionId: string };

export async function registrationOptions(db: Db, now: Date, rp: RelyingParty, caller: Caller) {
  const member = await repo.findMember(db, caller.memberId);
  const existing = await repo.passkeysOf(db, caller.memberId);
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
  const row = await repo.insertPasskey(db, {
    workspaceId: caller.workspaceId,
    memberId: caller.memberId,
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: credential.transports ?? null,
    name: input.name,
  });
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
): Promise<{ id: string; workspaceId: string; role: MemberRow['role'] }> {
  const response = input.response as unknown as AuthenticationResponseJSON;
  const challenge = challengeOf(response);
  await consumeChallenge(db, now, challenge, 'login', null);
  const found = await repo.passkeyWithMember(db, response.id);
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
  await repo.recordPasskeyUse(db, found.passkey.id, verified.authenticationInfo.newCounter, now);
  return { id: found.member.id, workspaceId: found.member.workspaceId, role: found.member.role };
}
