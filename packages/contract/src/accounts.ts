import { z } from 'zod';
import { INVITE_MAX_DAYS, MEMBER_ROLES } from './plain/accounts';

export const ZMemberRole = z.enum(MEMBER_ROLES);

/** Who this browser is: its member, role and workspace (`GET /api/auth/me`). */
export const ZMe = z.object({
  memberId: z.string(),
  workspaceId: z.string(),
  role: ZMemberRole,
  name: z.string().nullable(),
  passkeys: z.number().int(),
});
export type TMe = z.infer<typeof ZMe>;

export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;

export const ZPasskeyName = z.string().trim().min(1, 'Give the passkey a name').max(60);
export const ZRenamePasskey = z.object({ name: ZPasskeyName });

/** The browser's answer to the registration options (SimpleWebAuthn's RegistrationResponseJSON), and its name. */
export const ZPasskeyRegistration = z.object({
  name: ZPasskeyName,
  response: z.looseObject({ id: z.string().min(1), rawId: z.string().min(1), type: z.literal('public-key') }),
});
/** The browser's answer to the sign-in options (SimpleWebAuthn's AuthenticationResponseJSON). */
export const ZPasskeyLogin = z.object({
  response: z.looseObject({ id: z.string().min(1), rawId: z.string().min(1), type: z.literal('public-key') }),
});

export const ZSession = z.object({
  id: z.string(),
  current: z.boolean(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type TSession = z.infer<typeof ZSession>;

export const ZMember = z.object({
  id: z.string(),
  name: z.string().nullable(),
  role: ZMemberRole,
  you: z.boolean(),
  passkeys: z.number().int(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type TMember = z.infer<typeof ZMember>;

export const ZCreateInvite = z.object({
  role: ZMemberRole,
  /** Default: the server's INVITE_DAYS (7). */
  expiresInDays: z.number().int().min(1).max(INVITE_MAX_DAYS).optional(),
});
export const ZInvite = z.object({
  id: z.string(),
  role: ZMemberRole,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TInvite = z.infer<typeof ZInvite>;
/** `POST /api/workspace/invites`: the link is shown once; only its hash is kept. */
export const ZCreatedInvite = ZInvite.extend({ url: z.string() });
export type TCreatedInvite = z.infer<typeof ZCreatedInvite>;

/** What the invite page shows before the button (`GET /api/workspace/invites/:token`). */
export const ZInviteInfo = z.object({
  role: ZMemberRole,
  expiresAt: z.string(),
  /** This browser is already a member of the inviting workspace. */
  alreadyMember: z.boolean(),
  /** This browser is signed in to another workspace, which accepting leaves; whether it could come back. */
  leaves: z.object({ hasPasskey: z.boolean() }).nullable(),
});
export type TInviteInfo = z.infer<typeof ZInviteInfo>;

export const ZAcceptInvite = z.object({ name: z.string().trim().max(60).optional() });
export type TAcceptInvite = z.infer<typeof ZAcceptInvite>;
