import type { Db } from '../../db/client';
import type { TokenCipher } from '../../lib/crypto';
import { upstreamError } from '../../lib/errors';
import { type PrinterConnectionRow, updatePrinterConnection } from './printer-connections.repository';

/** A token is refreshed when it expires within this margin. */
const REFRESH_MARGIN_MS = 5 * 60_000;

type Tokens = { accessToken: string; refreshToken?: string | null; expiresAt: Date | null };

/**
 * A printer connection's OAuth access token (a network connected by OAuth): decrypted as kept, or refreshed first when it is
 * about to expire (a token without an expiry, a personal one, never is). Refresh tokens rotate: a refresh token is
 * spent by its use, so one refresh per workspace runs at a time and the others wait for it. A refusal marks the
 * connection broken and asks the seller to reconnect.
 */
export class PrinterTokens {
  private readonly refreshing = new Map<string, Promise<string>>();

  constructor(
    private readonly deps: {
      db: Db;
      cipher: TokenCipher;
      now: () => Date;
      /** The printer's name, as the seller reads it in an error. */
      name: string;
      refresh(refreshToken: string): Promise<Tokens>;
      /** The printer refused the refresh (not a network or programming error). */
      isRefusal(error: unknown): boolean;
    },
  ) {}

  token(row: PrinterConnectionRow & { accessTokenEnc: string }): Promise<string> {
    const expiresAt = row.tokenExpiresAt?.getTime();
    if (expiresAt === undefined || expiresAt - REFRESH_MARGIN_MS > this.deps.now().getTime()) {
      return Promise.resolve(this.deps.cipher.decrypt(row.accessTokenEnc));
    }
    const running = this.refreshing.get(row.workspaceId);
    if (running) return running;
    const promise = this.refreshRow(row).finally(() => this.refreshing.delete(row.workspaceId));
    this.refreshing.set(row.workspaceId, promise);
    return promise;
  }

  private async refreshRow(row: PrinterConnectionRow): Promise<string> {
    const { cipher, db, name } = this.deps;
    if (!row.refreshTokenEnc) throw upstreamError(`${name} authorisation expired; reconnect ${name}`);
    try {
      const tokens = await this.deps.refresh(cipher.decrypt(row.refreshTokenEnc));
      await updatePrinterConnection(db, row, {
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: tokens.refreshToken ? cipher.encrypt(tokens.refreshToken) : row.refreshTokenEnc,
        tokenExpiresAt: tokens.expiresAt,
      });
      return tokens.accessToken;
    } catch (error) {
      if (!this.deps.isRefusal(error)) throw error;
      await updatePrinterConnection(db, row, { status: 'error' });
      throw upstreamError(`${name} authorisation expired; reconnect ${name} on the Integrations page`);
    }
  }
}
