import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { TokenCipher } from '../../lib/crypto';

type Inject = FastifyInstance['inject'];

/** What a built-in sandbox printer is built with. */
export type PrinterSandboxDeps = {
  db: Db;
  /** Seals the orders' recipients and the webhook secrets at rest. */
  cipher: TokenCipher;
  now: () => Date;
  /** Seconds from confirmation to shipping; production starts at a sixth of it, delivery at twice it. */
  shipSeconds: number;
};

/**
 * What every built-in sandbox printer (one per network) shares: its fake is started in this process on
 * 127.0.0.1 on first use; a workspace reaches it with a credential derived from a per-process key (never stored),
 * `<prefix><workspaceId>.<hmac>`; what it fetches from the app (print files) and sends to it (webhooks) goes through
 * the app itself (`inject`), since the app's public address is unknown to it, each still a full HTTP request through
 * the real routes (signed URL checked, webhook signature checked). Each sandbox keeps its orders in its own tables.
 */
export abstract class PrinterSandbox<Server extends { close(): Promise<void> }, Client> {
  private started: Promise<Server> | null = null;
  private inject: Inject | null = null;
  private readonly key = randomBytes(32);
  private clientCache: Client | null = null;
  /** Set by the job wiring: asks for a tick at this instant. */
  onSchedule: (at: Date) => void = () => {};

  constructor(private readonly prefix: string) {}

  /** Starts the sandbox's fake (called once, on first use). */
  protected abstract start(): Promise<Server>;
  /** The client the adapter talks to the started fake with. */
  protected abstract connect(server: Server): Client;

  /** The app the sandbox fetches print files from and sends webhooks to. */
  attach(app: { inject: Inject }) {
    this.inject = app.inject.bind(app);
  }

  /** The credential (token or API key) of a workspace's sandbox account. */
  tokenFor(workspaceId: string): string {
    return `${this.prefix}${workspaceId}.${createHmac('sha256', this.key).update(workspaceId).digest('hex').slice(0, 32)}`;
  }

  /** The workspace a credential belongs to; null for any other credential. */
  protected accountOf(token: string): string | null {
    if (!token.startsWith(this.prefix)) return null;
    const [workspaceId] = token.slice(this.prefix.length).split('.');
    return workspaceId && this.tokenFor(workspaceId) === token ? workspaceId : null;
  }

  /** Production starts at a sixth of `shipSeconds`, shipping at it, delivery at twice it (milliseconds). */
  protected delays(shipSeconds: number) {
    const ms = shipSeconds * 1000;
    return { production: Math.round(ms / 6), ship: ms, deliver: ms * 2 };
  }

  /** The path and query of a URL the app serves (the sandbox reaches the app through inject). */
  private local(url: string) {
    const u = new URL(url);
    return u.pathname + u.search;
  }

  /** How the fake reaches the app: a print file is there when the app answers 200 with an image. */
  protected readonly app = {
    fetchFile: async (url: string): Promise<boolean> => {
      if (!this.inject) return false;
      const r = await this.inject({ method: 'GET', url: this.local(url) });
      return r.statusCode === 200 && String(r.headers['content-type'] ?? '').startsWith('image/');
    },
    post: async (url: string, body: string, headers: Record<string, string>): Promise<void> => {
      if (!this.inject) throw new Error('the sandbox is not attached to the app');
      const r = await this.inject({ method: 'POST', url: this.local(url), payload: body, headers });
      if (r.statusCode >= 300) throw new Error(`webhook answered ${r.statusCode}`);
    },
  };

  server(): Promise<Server> {
    this.started ??= this.start();
    return this.started;
  }

  async client(): Promise<Client> {
    const fake = await this.server();
    this.clientCache ??= this.connect(fake);
    return this.clientCache;
  }

  async close() {
    const fake = await this.started;
    await fake?.close();
  }
}
