import type { CatalogSourceImpl } from '../catalog/catalog.service';
import type { PrinterAccount } from './fulfilment-provider';

/** What every printer adapter reached through a workspace's account (its own or a sandbox's) is built with. */
export type AccountPrinterOptions<A extends PrinterAccount> = {
  id: string;
  name: string;
  /** The printer network (`FULFILMENT_NETWORKS`); the adapter's own when not given. */
  network?: string;
  /** A built-in sandbox rather than the seller's own account. */
  sandbox?: boolean;
  fallback?: boolean;
  needsPublicUrl: boolean;
  /** The workspace's connection (client, token, shop), or null when not connected. */
  connection(workspaceId: string): Promise<Omit<A, 'provider' | 'workspaceId'> | null>;
  catalogue(workspaceId: string): Promise<CatalogSourceImpl>;
  /** The network's catalogue as sellers browse it (see `FulfilmentProvider.networkCatalogue`). */
  networkCatalogue?: (workspaceId: string) => Promise<CatalogSourceImpl>;
};

/**
 * The part of a `FulfilmentProvider` adapter that is the same for every printer: who it is (id, name, network,
 * sandbox or not), the workspace's account (its connection, tagged with the provider and workspace) and catalogue.
 */
export abstract class AccountPrinter<A extends PrinterAccount, O extends AccountPrinterOptions<A>> {
  readonly id: string;
  readonly name: string;
  readonly network: string;
  readonly sandbox: boolean;
  readonly fallback: boolean;
  readonly needsPublicUrl: boolean;
  readonly networkCatalogue?: (workspaceId: string) => Promise<CatalogSourceImpl>;

  constructor(
    protected readonly options: O,
    network: string,
  ) {
    this.id = options.id;
    this.name = options.name;
    this.network = options.network ?? network;
    this.sandbox = options.sandbox ?? false;
    this.fallback = options.fallback ?? false;
    this.needsPublicUrl = options.needsPublicUrl;
    this.networkCatalogue = options.networkCatalogue;
  }

  async account(workspaceId: string): Promise<A | null> {
    const conn = await this.options.connection(workspaceId);
    return conn ? ({ ...conn, provider: this.id, workspaceId } as A) : null;
  }

  catalogue(workspaceId: string) {
    return this.options.catalogue(workspaceId);
  }
}
