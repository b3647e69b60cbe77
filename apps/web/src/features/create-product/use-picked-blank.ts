import { DEFAULT_CATALOG_PRODUCT } from '@podforge/contract/plain';
import { useCatalogProduct } from '@/api/catalog/get-catalog-product';

const squash = (type: string) => type.toLowerCase().replace(/[^a-z]/g, '');

/**
 * The blank quick create prints on: the catalogue product picked in the Product Picker (carried in the URL and kept
 * in the flow) when it is of the listing's product type, else the type's default blank. `mismatch` names a picked
 * blank that could not be used, so the switch is never silent.
 */
export function usePickedBlank(picked: number | null, productType: string | null) {
  // Nothing is read before the listing names its product type (the Preview Mockup step).
  const pickedQuery = useCatalogProduct(productType === null ? null : picked);
  const fits = pickedQuery.data !== undefined && squash(pickedQuery.data.type) === squash(productType ?? '');
  const fallback = productType === null ? null : (DEFAULT_CATALOG_PRODUCT[productType] ?? null);
  const blankId = productType !== null && picked !== null && (fits || pickedQuery.isPending) ? picked : fallback;
  const blank = useCatalogProduct(blankId);
  return {
    /** The catalogue product the product is made on; null while the picked one is read. */
    catalogProductId: picked !== null && pickedQuery.isPending ? null : blankId,
    blank,
    mismatch: picked !== null && pickedQuery.data && !fits ? pickedQuery.data : null,
  };
}
