/** A member's role: owners manage members and invites, editors change things, viewers only look. */
export const MEMBER_ROLES = ['owner', 'editor', 'viewer'] as const;
export type TMemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_ROLE_LABELS: Record<TMemberRole, string> = {
  owner: 'Owner',
  editor: 'Editor',
  viewer: 'Viewer',
};

/** The longest an invite link may work. */
export const INVITE_MAX_DAYS = 30;
