/**
 * The catalogue the fake Printify (and so the built-in Printify sandbox) serves: blueprints, their print providers
 * and variants with the placeholders' pixel sizes, in Printify's own shapes (apis-next.md F.3). Ids, titles, brands,
 * models and the tee's placeholder size are the ones Printify's documentation shows (blueprint 6, Gildan 5000,
 * provider 3 'DJ', variant 17390 'Heather Grey / XS', front/back 3153x3995); the other variants and the costs are
 * sandbox figures (integer cents, as Printify sends them, in no stated currency), used only by the fake and the
 * sandbox, never shown as a real Printify price.
 */

export type FixtureVariant = {
  id: number;
  title: string;
  options: { color: string; size: string };
  placeholders: { position: string; height: number; width: number }[];
  /** Sandbox cost in cents (what a product create answers as `cost`). */
  cost: number;
  /** Hex of the colour (Printify's catalogue has none; the sandbox pictures use it). */
  hex: string;
};
export type FixtureProvider = {
  id: number;
  title: string;
  variants: FixtureVariant[];
  shippingFirst: number;
  shippingEach: number;
};
export type FixtureBlueprint = {
  id: number;
  title: string;
  brand: string;
  model: string;
  description: string;
  /** Podforge's product type (the contract's words), for the picker and print files. */
  type: 'tshirt' | 'hoodie' | 'mug';
  providers: FixtureProvider[];
};

const grid = (
  firstId: number,
  colours: [string, string][],
  sizes: [string, number][],
  placeholders: FixtureVariant['placeholders'],
): FixtureVariant[] =>
  colours.flatMap(([color, hex], ci) =>
    sizes.map(([size, cost], si) => ({
      id: firstId + ci * sizes.length + si,
      title: `${color} / ${size}`,
      options: { color, size },
      placeholders,
      cost,
      hex,
    })),
  );

const TEE_AREAS = [
  { position: 'front', height: 3995, width: 3153 },
  { position: 'back', height: 3995, width: 3153 },
];
const HOODIE_AREAS = [{ position: 'front', height: 2814, width: 3852 }];
const MUG_AREAS = [{ position: 'front', height: 1200, width: 2700 }];

export const PRINTIFY_BLUEPRINTS: FixtureBlueprint[] = [
  {
    id: 6,
    title: 'Unisex Heavy Cotton Tee',
    brand: 'Gildan',
    model: '5000',
    description: 'A classic heavy cotton tee.',
    type: 'tshirt',
    providers: [
      {
        id: 3,
        title: 'DJ',
        shippingFirst: 475,
        shippingEach: 240,
        variants: grid(
          17390,
          [
            ['Heather Grey', '#b4b4b4'],
            ['Black', '#000000'],
            ['White', '#ffffff'],
          ],
          [
            ['XS', 890],
            ['S', 890],
            ['M', 890],
            ['L', 890],
            ['XL', 890],
            ['2XL', 1150],
          ],
          TEE_AREAS,
        ),
      },
      {
        id: 8,
        title: 'Fifth Sun',
        shippingFirst: 450,
        shippingEach: 200,
        variants: grid(
          18100,
          [
            ['Black', '#000000'],
            ['White', '#ffffff'],
          ],
          [
            ['S', 925],
            ['M', 925],
            ['L', 925],
            ['XL', 925],
          ],
          TEE_AREAS,
        ),
      },
    ],
  },
  {
    id: 77,
    title: 'Unisex Heavy Blend™ Hooded Sweatshirt',
    brand: 'Gildan',
    model: '18500',
    description: 'A heavy blend hooded sweatshirt.',
    type: 'hoodie',
    providers: [
      {
        id: 99,
        title: 'Printify Choice',
        shippingFirst: 849,
        shippingEach: 250,
        variants: grid(
          32900,
          [
            ['Black', '#000000'],
            ['Navy', '#1f2a44'],
          ],
          [
            ['S', 2150],
            ['M', 2150],
            ['L', 2150],
            ['XL', 2150],
          ],
          HOODIE_AREAS,
        ),
      },
    ],
  },
  {
    id: 68,
    title: 'Mug 11oz',
    brand: 'Generic brand',
    model: 'Mug 11oz',
    description: 'A white ceramic mug.',
    type: 'mug',
    providers: [
      {
        id: 1,
        title: 'SPOKE Custom Products',
        shippingFirst: 699,
        shippingEach: 350,
        variants: grid(33719, [['White', '#ffffff']], [['11oz', 465]], MUG_AREAS),
      },
    ],
  },
];

export function fixtureVariant(blueprintId: number, providerId: number, variantId: number) {
  const provider = PRINTIFY_BLUEPRINTS.find((b) => b.id === blueprintId)?.providers.find((p) => p.id === providerId);
  return provider?.variants.find((v) => v.id === variantId) ?? null;
}
