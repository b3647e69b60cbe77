import type { Rect } from './mockup-geometry';

export const MOCKUP_PRODUCT_TYPES = ['tshirt', 'hoodie', 'mug', 'poster'] as const;
export type TMockupProductType = (typeof MOCKUP_PRODUCT_TYPES)[number];

/** Any other product type falls back to the t-shirt set (spec section 3). */
export function mockupProductType(productType: string | null | undefined): TMockupProductType {
  return (MOCKUP_PRODUCT_TYPES as readonly string[]).includes(productType ?? '')
    ? (productType as TMockupProductType)
    : 'tshirt';
}

/**
 * Spec section 3 'Mockup template sets': the design areas in the 400x500 canvas space. The t-shirt's is centred
 * (x 100, not the spec's 150; issue 12): the tee is drawn centred in the frame so neither sleeve is cut off.
 */
export const DESIGN_AREAS: Record<TMockupProductType, Rect> = {
  tshirt: { x: 100, y: 120, width: 200, height: 240 },
  hoodie: { x: 140, y: 160, width: 220, height: 260 },
  mug: { x: 120, y: 80, width: 160, height: 160 },
  poster: { x: 50, y: 50, width: 300, height: 400 },
};
