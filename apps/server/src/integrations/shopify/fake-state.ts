import { createHash } from 'node:crypto';

/**
 * Where the fake Shopify keeps what must outlive a request: its shops' products, the tokens it issued and the
 * staged-upload files. Tests use the memory store; the built-in sandbox uses one backed by the app's database and
 * storage (modules/shopify/sandbox-store.ts), so the sandbox survives a restart and is shared by app instances.
 * Values are plain JSON; every read goes to the store, so an instance sees what another wrote.
 */
export interface FakeShopifyStore {
  get<T>(kind: string, key: string): Promise<T | null>;
  /** Every value of `kind` whose key starts with `prefix`. */
  list<T>(kind: string, prefix: string): Promise<T[]>;
  put(kind: string, key: string, value: unknown): Promise<void>;
  delete(kind: string, key: string): Promise<void>;
  putFile(key: string, bytes: Buffer, contentType: string): Promise<void>;
  getFile(key: string): Promise<{ bytes: Buffer; contentType: string } | null>;
}

/** Everything in this process's memory (tests; values are the stored objects themselves). */
export function memoryFakeShopifyStore(): FakeShopifyStore {
  const values = new Map<string, unknown>();
  const files = new Map<string, { bytes: Buffer; contentType: string }>();
  const id = (kind: string, key: string) => `${kind}\u0000${key}`;
  return {
    async get<T>(kind: string, key: string) {
      return (values.get(id(kind, key)) as T | undefined) ?? null;
    },
    async list<T>(kind: string, prefix: string) {
      const start = id(kind, prefix);
      return [...values.entries()].filter(([k]) => k.startsWith(start)).map(([, v]) => v as T);
    },
    async put(kind, key, value) {
      values.set(id(kind, key), value);
    },
    async delete(kind, key) {
      values.delete(id(kind, key));
    },
    async putFile(key, bytes, contentType) {
      files.set(key, { bytes, contentType });
    },
    async getFile(key) {
      return files.get(key) ?? null;
    },
  };
}

export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The fake's token map, written through to the store under the token's SHA-256 (a stored row is no token): a Map
 * from token to grant, kept by digest inside, so `load()` can fill it again after a restart and `get` stays
 * synchronous. Iterating yields digests; `delete` takes a token or a digest met while iterating (a real token is
 * never 64 hex digits). Lookups that miss memory (a token another instance issued) are answered by `recall`.
 */
export class StoredTokenMap<V> extends Map<string, V> {
  private store: FakeShopifyStore | null = null;
  private readonly writes = new Set<Promise<void>>();

  /** `kind`: the store's kind for these tokens (access and refresh tokens are kept apart). */
  constructor(private readonly kind = 'token') {
    super();
  }

  attach(store: FakeShopifyStore): this {
    this.store = store;
    return this;
  }

  private static key(tokenOrDigest: string) {
    return /^[0-9a-f]{64}$/.test(tokenOrDigest) ? tokenOrDigest : tokenDigest(tokenOrDigest);
  }

  override get(token: string): V | undefined {
    return super.get(StoredTokenMap.key(token));
  }

  override has(token: string): boolean {
    return super.has(StoredTokenMap.key(token));
  }

  override set(token: string, value: V): this {
    const digest = StoredTokenMap.key(token);
    super.set(digest, value);
    this.track(this.store?.put(this.kind, digest, { digest, value }));
    return this;
  }

  override delete(token: string): boolean {
    const digest = StoredTokenMap.key(token);
    this.track(this.store?.delete(this.kind, digest));
    return super.delete(digest);
  }

  /** Every token the store holds, back in memory (at start, after a restart). */
  async load(): Promise<this> {
    if (!this.store) return this;
    for (const row of await this.store.list<{ digest: string; value: V }>(this.kind, '')) {
      super.set(row.digest, row.value);
    }
    return this;
  }

  /** The grant of a token: from memory, else from the store. */
  async recall(token: string): Promise<V | undefined> {
    const known = this.get(token);
    if (known !== undefined || !this.store) return known;
    await this.flush();
    const digest = StoredTokenMap.key(token);
    const stored = await this.store.get<{ digest: string; value: V }>(this.kind, digest);
    if (stored === null) return undefined;
    super.set(digest, stored.value);
    return stored.value;
  }

  /** Waits for the writes in flight. */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  private track(write: Promise<void> | undefined) {
    if (!write) return;
    const settled: Promise<void> = write.catch(() => undefined).finally(() => this.writes.delete(settled));
    this.writes.add(settled);
  }
}

/** The shops' products as the fake keeps them (GraphQL ids): fake-server.ts serves them, fake-webhooks.ts sends them. */
type Opt = { name: string; value: string };
type MediaStatus = 'UPLOADED' | 'PROCESSING' | 'READY' | 'FAILED';
export type FakeVariant = {
  id: string;
  title: string;
  price: string;
  sku: string | null;
  selectedOptions: Opt[];
  inventoryItemId: string;
  tracked: boolean;
  inventoryPolicy: 'DENY' | 'CONTINUE';
  inventoryQuantity: number;
  /** The variant's own picture (one of the product's media). */
  mediaId: string | null;
};
export type FakeMedia = {
  id: string;
  alt: string;
  /** As given; a staged upload of this fake is kept as its key (`stagedKey`), so its URL survives a new port. */
  originalSource: string;
  stagedKey: string | null;
  status: MediaStatus;
  /** How it ends once processed: null for READY. */
  failure: { code: string; message: string } | null;
};
export type FakeProduct = {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  productType: string;
  tags: string[];
  status: string;
  options: { name: string; values: string[] }[];
  variants: FakeVariant[];
  media: FakeMedia[];
  /** Publication ids the product is published to. */
  publications: string[];
  createdAt: string;
  updatedAt: string;
};
