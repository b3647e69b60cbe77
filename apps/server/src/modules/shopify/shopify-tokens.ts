import type { Db } from '../../db/db';
import { type ShopifyClient, ShopifyError, type TokenGrant } from '../../integrations/shopify/client';
import type { TokenCipher } from '../../lib/crypto';
import { conflict } from '../../lib/errors';
import {
  claimTokenRefresh,
  type IntegrationRow,
  markTokenRefused,
  storeById,
  updateStoreConnection,
} from '../stores/store-connections.repository';

/**
 * A store's access token, fresh (apis.md E1). Public apps hold expiring offline tokens (an hour) with a refresh
 * token; a token within REFRESH_MARGIN_MS of its expiry is refreshed before use. Shopify rotates refresh tokens
 * (the one presented stops working), so two refreshes of one store would lose it: one refresh at a time across
 * all app instances, by a lease on the integration row (`refresh_locked_until`, claimed with a conditional
 * update, so it holds no connection while Shopify answers). The others wait for the new token. The rotated pair
 * and its expiry are written in one statement. A token with no expiry is used as it is by a custom app; a public
 * app exchanges it once for an expiring pair (under the same lease), and keeps using it if Shopify says no.
 */

export const REFRESH_MARGIN_MS = 5 * 60_000;
/** Longer than a refresh can take; a lease left by an instance that died runs out after this. */
const LEASE_MS = 30_000;
const WAIT_STEP_MS = 100;
const WAIT_STEPS = 200;
/** After Shopify refused to exchange a non-expiring token, this instance waits this long before asking again. */
const MIGRATION_RETRY_MS = 60 * 60_000;

type Deps = {
  db: Db;
  cipher: TokenCipher;
  now: () => Date;
  client: () => Promise<ShopifyClient>;
  /**
   * A public app: a token without expiry (connected before expiring tokens) is exchanged once for an expiring one,
   * since Shopify stops taking non-expiring tokens from public apps. False for a custom app (SHOPIFY_TOKEN_MODE).
   */
  migrateLegacy: boolean;
  sleep?: (ms: number) => Promise<void>;
};

/** The columns a granted token is stored in: encrypted, with its expiry (none for a token that never expires). */
export function grantColumns(cipher: TokenCipher, grant: TokenGrant, now: Date) {
  const at = (seconds: number | undefined) => (seconds ? new Date(now.getTime() + seconds * 1000) : null);
  return {
    accessTokenEnc: cipher.encrypt(grant.accessToken),
    refreshTokenEnc: grant.refreshToken ? cipher.encrypt(grant.refreshToken) : null,
    tokenExpiresAt: at(grant.expiresIn),
    refreshTokenExpiresAt: grant.refreshToken ? at(grant.refreshTokenExpiresIn) : null,
    refreshLockedUntil: null,
  };
}

const storeName = (row: IntegrationRow) => row.storeName ?? row.externalId;

export class ShopifyTokens {
  private readonly sleep: (ms: number) => Promise<void>;
  /** Per instance (a cache, not state): when a refused exchange of a non-expiring token may be tried again. */
  private readonly migrationRefusedUntil = new Map<string, number>();

  constructor(private readonly deps: Deps) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private notConnected(row: IntegrationRow) {
    return conflict(`${storeName(row)} is not connected. Connect it in Integrations first.`);
  }

  private async reread(id: string): Promise<IntegrationRow | undefined> {
    return storeById(this.deps.db, id);
  }

  /** Shopify will not renew the token: the seller must connect the store again, and the row says so. */
  private async refused(row: IntegrationRow): Promise<never> {
    await markTokenRefused(this.deps.db, row.id);
    throw conflict(
      `Shopify no longer accepts Podforge's access to ${storeName(row)}. Reconnect the store in Integrations.`,
    );
  }

  async accessToken(given: IntegrationRow): Promise<string> {
    let row: IntegrationRow | undefined = given;
    for (let step = 0; step <= WAIT_STEPS; step++) {
      if (row?.status !== 'connected' || !row.verifiedAt || !row.accessTokenEnc) {
        throw this.notConnected(given);
      }
      const now = this.deps.now();
      const expires = row.tokenExpiresAt?.getTime();
      if (expires === undefined) {
        const refused = (this.migrationRefusedUntil.get(row.id) ?? 0) > now.getTime();
        if (!this.deps.migrateLegacy || refused) return this.deps.cipher.decrypt(row.accessTokenEnc);
      } else if (expires - now.getTime() > REFRESH_MARGIN_MS) {
        return this.deps.cipher.decrypt(row.accessTokenEnc);
      } else if (!row.refreshTokenEnc) {
        return this.refused(row);
      }
      // Only while the row holds the token this instance read: another instance has not refreshed it meanwhile.
      const claimed = await claimTokenRefresh(this.deps.db, row, new Date(now.getTime() + LEASE_MS), now);
      if (claimed && !claimed.tokenExpiresAt) return this.migrate(claimed);
      if (claimed?.refreshTokenEnc) return this.refresh(claimed, claimed.refreshTokenEnc);
      // Another instance refreshes (or just did): read again once it had time to store the new pair.
      if (step > 0) await this.sleep(WAIT_STEP_MS);
      row = await this.reread(given.id);
    }
    throw conflict(`Shopify did not renew the access token of ${storeName(given)} in time; try again shortly`);
  }

  /** A non-expiring token exchanged for an expiring pair; if Shopify says no, the old token goes on working. */
  private async migrate(row: IntegrationRow): Promise<string> {
    const legacy = this.deps.cipher.decrypt(row.accessTokenEnc as string);
    let grant: TokenGrant;
    try {
      grant = await (await this.deps.client()).migrateToExpiring(row.externalId, legacy);
    } catch {
      this.migrationRefusedUntil.set(row.id, this.deps.now().getTime() + MIGRATION_RETRY_MS);
      await updateStoreConnection(this.deps.db, row.id, { refreshLockedUntil: null });
      return legacy;
    }
    await updateStoreConnection(this.deps.db, row.id, {
      ...grantColumns(this.deps.cipher, grant, this.deps.now()),
      scopes: grant.scope || row.scopes,
    });
    return grant.accessToken;
  }

  private async refresh(row: IntegrationRow, refreshTokenEnc: string): Promise<string> {
    const client = await this.deps.client();
    let grant: TokenGrant;
    try {
      grant = await client.refreshAccessToken(row.externalId, this.deps.cipher.decrypt(refreshTokenEnc));
    } catch (error) {
      if (error instanceof ShopifyError && error.status === 401) return this.refused(row);
      await updateStoreConnection(this.deps.db, row.id, { refreshLockedUntil: null });
      throw error;
    }
    // The old refresh token is spent: the new pair goes in at once, in one statement, and the lease with it.
    await updateStoreConnection(this.deps.db, row.id, {
      ...grantColumns(this.deps.cipher, grant, this.deps.now()),
      scopes: grant.scope || row.scopes,
    });
    return grant.accessToken;
  }
}
