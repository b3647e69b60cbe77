import { createHash } from 'node:crypto';
import type { Db } from '../../db/db';
import type { TokenCipher } from '../../lib/crypto';
import type { Storage } from '../../storage/storage';
import { sandboxStateOf, saveSandboxState } from './sandbox-state.repository';
import type { StorePlatformId } from './store-publisher';

/**
 * A workspace's own mark in the built-in sandboxes (12 hex digits of a hash of its id): the sandbox shop names and
 * sandbox sellers it makes carry it, so another workspace typing the same shop name, or connecting the
 * same sandbox, gets a shop of its own.
 */
export const sandboxOwnerTag = (workspaceId: string) =>
  createHash('sha256').update(`podforge-sandbox-owner:${workspaceId}`).digest('hex').slice(0, 12);

/**
 * Where a built-in store sandbox keeps what it holds: its state as one JSON row per platform, saved
 * after every change (in order: a later save never lands before an earlier one), and its pictures in the app's
 * storage under `sandbox/<platform>/`. So a restart, or another instance started on the same database, finds the
 * sandbox shops as they were. The state holds what the sandbox issued (keys, tokens, webhook secrets), so it is
 * kept sealed with the app's key (`{ sealed }`, AES-256-GCM like the tokens); a plain one saved before is read as it
 * is and sealed at the next save.
 */
export class SandboxState<T> {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly platform: StorePlatformId,
    private readonly cipher: TokenCipher,
  ) {}

  async load(): Promise<T | null> {
    const stored = (await sandboxStateOf(this.db, this.platform)) as { sealed?: unknown } | T | undefined;
    if (stored && typeof stored === 'object' && 'sealed' in stored && typeof stored.sealed === 'string')
      return JSON.parse(this.cipher.decrypt(stored.sealed)) as T;
    return (stored as T | undefined) ?? null;
  }

  save(state: T): Promise<void> {
    this.chain = this.chain
      .catch(() => {})
      .then(async () => {
        const sealed = { sealed: this.cipher.encrypt(JSON.stringify(state)) };
        await saveSandboxState(this.db, this.platform, sealed, new Date());
      });
    return this.chain;
  }

  /** Waits for saves in flight (before the database closes). */
  async flush(): Promise<void> {
    await this.chain.catch(() => {});
  }

  readonly images = {
    put: async (id: number, bytes: Buffer) => {
      await this.storage.put(`sandbox/${this.platform}/${id}.png`, bytes, 'image/png');
    },
    get: (id: number) => this.storage.read(`sandbox/${this.platform}/${id}.png`),
  };
}
