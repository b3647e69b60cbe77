import { ErrorCode, platformLabel } from '@podforge/contract';
import type { Db } from '../../db/client';
import { AppError, conflict } from '../../lib/errors';
import type { Storage } from '../../storage/storage';
import { mockupFileById } from '../mockups/mockup-files';
import type { PrintFilesDeps } from '../print-files/print-files.deps';
import { assertConnected, type IntegrationRow, type PushProduct, type StorePublisher } from '../stores/store-publisher';
import { mockupLinksOf, type ProductRow, variantsOf } from './products.repository';

/** The product as a store is sent it (the StorePublisher's PushProduct), read through the product's repository. */

type Deps = { db: Db; storage: Storage; now: () => Date } & Pick<PrintFilesDeps, 'config' | 'decodePool'>;

/** The product as stores are sent it. */
export async function loadPushProduct(deps: Deps, workspaceId: string, row: ProductRow): Promise<PushProduct> {
  const variants = ((await variantsOf(deps.db, [row.id])).get(row.id) ?? []).filter(
    (v) => v.workspaceId === workspaceId,
  );
  if (variants.length === 0) throw conflict(`"${row.title}" has no variants to sell`);
  const pictures = ((await mockupLinksOf(deps.db, [row.id])).get(row.id) ?? [])
    .filter((l) => l.workspaceId === workspaceId)
    .map((l) => ({ mockupId: l.mockupId, color: l.color, main: l.main }));
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    productType: row.productType,
    variants: variants.map((v) => ({
      id: v.id,
      sku: v.sku ?? `PF-${row.id.slice(0, 8)}-${v.position}`,
      color: v.color,
      size: v.size,
      option: v.option,
      price: v.price,
    })),
    images: pictures.map((p) => ({
      mockupId: p.mockupId,
      color: p.color,
      main: p.main,
      read: () => mockupFileById(deps, p.mockupId),
    })),
  };
}

/**
 * What a push checks in the request, before anything is queued or sent: the store is connected and the product meets
 * the platform's rules (the adapter's `problems`: title and tag characters, the shop's setup...), answered 422 with
 * the reasons.
 */
export async function assertPushable(
  deps: Deps,
  publisher: StorePublisher,
  workspaceId: string,
  store: IntegrationRow,
  row: ProductRow,
): Promise<void> {
  assertConnected(store);
  const product = await loadPushProduct(deps, workspaceId, row);
  const problems = await publisher.problems(store, product);
  if (problems.length > 0) {
    throw new AppError(422, ErrorCode.Unprocessable, `${platformLabel(publisher.platform)}: ${problems.join(' ')}`);
  }
}
