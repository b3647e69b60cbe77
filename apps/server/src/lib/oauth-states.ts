import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { oauthStates } from '../db/schema';
import { randomToken } from './crypto';

/** How long an OAuth flow may take from our redirect to the provider's callback. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

type Scope = {
  db: Db;
  workspaceId: string;
  provider: 'printful' | 'printify' | 'shopify' | 'etsy' | 'amazon';
  now: Date;
};

/**
 * A single-use state nonce bound to the workspace that starts an OAuth flow, with what the callback must check
 * (shop, redirect URL). The workspace's own expired nonces are dropped on the way.
 */
export async function issueOAuthState({ db, workspaceId, provider, now }: Scope, data: object): Promise<string> {
  const state = randomToken(32);
  await db
    .delete(oauthStates)
    .where(
      and(
        eq(oauthStates.workspaceId, workspaceId),
        lt(oauthStates.createdAt, new Date(now.getTime() - OAUTH_STATE_TTL_MS)),
      ),
    );
  // Stamped with the app's clock, the one `fresh` compares with.
  await db.insert(oauthStates).values({ state, workspaceId, provider, data, createdAt: now });
  return state;
}

const matching = ({ workspaceId, provider }: Scope, state: string) =>
  and(eq(oauthStates.state, state), eq(oauthStates.workspaceId, workspaceId), eq(oauthStates.provider, provider));

const fresh = (row: { createdAt: Date } | undefined, now: Date) =>
  row !== undefined && row.createdAt.getTime() >= now.getTime() - OAUTH_STATE_TTL_MS;

/** The callback: the nonce's data if it is this workspace's and unexpired, else null. Used once either way. */
export async function consumeOAuthState<T>(scope: Scope, state: string): Promise<T | null> {
  const [row] = await scope.db.delete(oauthStates).where(matching(scope, state)).returning();
  return fresh(row, scope.now) ? ((row?.data ?? {}) as T) : null;
}

/** The nonce's data without using it up (a step between start and callback), else null. */
export async function peekOAuthState<T>(scope: Scope, state: string): Promise<T | null> {
  const [row] = await scope.db.select().from(oauthStates).where(matching(scope, state));
  return fresh(row, scope.now) ? ((row?.data ?? {}) as T) : null;
}

/**
 * The flow a sandbox approval relay is asked to hand on (its `state` and `redirect_uri` in `query`): what it
 * remembered when it is one this workspace started and has not used, to that same callback; else null. A relay hands
 * the browser a redirect only then, so it never sends anyone to an address of an attacker's choosing.
 */
export async function pendingFlowOf<T extends { redirectUri?: string }>(
  scope: Scope,
  query: URLSearchParams,
): Promise<T | null> {
  const state = query.get('state');
  if (!state) return null;
  const data = await peekOAuthState<T>(scope, state);
  return data !== null && data.redirectUri === query.get('redirect_uri') ? data : null;
}
