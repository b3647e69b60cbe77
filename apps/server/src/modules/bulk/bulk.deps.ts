import type { AiDeps } from '../ai/ai.deps';
import type { MockupsDeps } from '../mockups/mockups.deps';
import type { ProductsDeps } from '../products/products.deps';

/** What a bulk run uses: the product create, the mockup renders and the listing text of the single flow. */
export type BulkDeps = ProductsDeps & MockupsDeps & AiDeps;
