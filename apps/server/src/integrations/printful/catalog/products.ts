/**
 * A snapshot of Printful's catalogue, bundled so the product works with no Printful account. Names, brands, models,
 * sizes, colours (hex) and print-file sizes follow Printful's published catalogue; base prices are the blank's
 * USD cost in the standard (non-discounted) tier, as strings like the API sends them. Variants are the colour x
 * size grid; larger sizes cost more, as on Printful.
 */

export type CatalogType = 'tshirt' | 'hoodie' | 'mug' | 'poster' | 'phone_case' | 'tote' | 'sticker';

export type Colour = readonly [name: string, hex: string];
/** Size name and its price as a decimal string. */
export type SizePrice = readonly [size: string, price: string];
export type PrintArea = {
  placement: string;
  title: string;
  technique: string;
  widthPx: number;
  heightPx: number;
  dpi: number;
};

export type ProductSeed = {
  id: number;
  categoryId: number;
  type: CatalogType;
  name: string;
  brand: string;
  model: string;
  description: string;
  colours: readonly Colour[];
  sizes: readonly SizePrice[];
  printAreas: readonly PrintArea[];
  /** Body colour when the variant colour is only an accent (a white mug with a coloured inside). */
  bodyHex?: string;
};

const WHITE: Colour = ['White', '#ffffff'];
const BLACK: Colour = ['Black', '#0c0c0c'];
const NAVY: Colour = ['Navy', '#212642'];
const HEATHER: Colour = ['Athletic Heather', '#cececc'];
const RED: Colour = ['Red', '#d0071e'];
const FOREST: Colour = ['Forest', '#223b26'];
const MAROON: Colour = ['Maroon', '#6b1c2e'];
const SAND: Colour = ['Sand', '#dcd2be'];
const ROYAL: Colour = ['Royal', '#1d4f91'];
const CHARCOAL: Colour = ['Charcoal', '#403e41'];
const PINK: Colour = ['Pink', '#fdbfc7'];

/** DTG shirt sizes with Printful's usual upcharges above XL. */
const shirtSizes = (base: number, from: 'XS' | 'S' = 'S', to: '2XL' | '3XL' | '4XL' = '3XL'): SizePrice[] => {
  const all = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL'];
  const sizes = all.slice(all.indexOf(from), all.indexOf(to) + 1);
  return sizes.map((s) => {
    const extra = s === '2XL' ? 2 : s === '3XL' ? 4 : s === '4XL' ? 6 : 0;
    return [s, (base + extra).toFixed(2)] as const;
  });
};

const tee = (widthIn: number, heightIn: number, back = true): PrintArea[] => [
  {
    placement: 'front',
    title: 'Front print',
    technique: 'dtg',
    widthPx: widthIn * 150,
    heightPx: heightIn * 150,
    dpi: 150,
  },
  ...(back
    ? [
        {
          placement: 'back',
          title: 'Back print',
          technique: 'dtg',
          widthPx: widthIn * 150,
          heightPx: heightIn * 150,
          dpi: 150,
        },
      ]
    : []),
];

export const CATEGORY_IDS = {
  apparel: 1,
  tshirts: 24,
  hoodies: 55,
  home: 4,
  mugs: 112,
  posters: 21,
  accessories: 5,
  phoneCases: 40,
  toteBags: 84,
  stickers: 202,
} as const;

export type CategorySeed = { id: number; parentId: number; title: string; type: CatalogType | null };

export const CATEGORY_SEEDS: readonly CategorySeed[] = [
  { id: CATEGORY_IDS.apparel, parentId: 0, title: 'Apparel', type: null },
  { id: CATEGORY_IDS.tshirts, parentId: CATEGORY_IDS.apparel, title: 'T-Shirts', type: 'tshirt' },
  { id: CATEGORY_IDS.hoodies, parentId: CATEGORY_IDS.apparel, title: 'Hoodies', type: 'hoodie' },
  { id: CATEGORY_IDS.home, parentId: 0, title: 'Home & Living', type: null },
  { id: CATEGORY_IDS.mugs, parentId: CATEGORY_IDS.home, title: 'Mugs', type: 'mug' },
  { id: CATEGORY_IDS.posters, parentId: CATEGORY_IDS.home, title: 'Posters', type: 'poster' },
  { id: CATEGORY_IDS.accessories, parentId: 0, title: 'Accessories', type: null },
  { id: CATEGORY_IDS.phoneCases, parentId: CATEGORY_IDS.accessories, title: 'Phone Cases', type: 'phone_case' },
  { id: CATEGORY_IDS.toteBags, parentId: CATEGORY_IDS.accessories, title: 'Tote Bags', type: 'tote' },
  { id: CATEGORY_IDS.stickers, parentId: CATEGORY_IDS.accessories, title: 'Stickers', type: 'sticker' },
];

const C = CATEGORY_IDS;

export const PRODUCT_SEEDS: readonly ProductSeed[] = [
  // T-Shirts
  {
    id: 71,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Staple T-Shirt | Bella + Canvas 3001',
    brand: 'Bella + Canvas',
    model: '3001',
    description: 'A soft, lightweight unisex tee of 100% combed and ring-spun cotton with a retail fit and side seams.',
    colours: [WHITE, BLACK, NAVY, HEATHER, RED, FOREST],
    sizes: shirtSizes(9.25, 'XS', '4XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 438,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Heavy Cotton Tee | Gildan 5000',
    brand: 'Gildan',
    model: '5000',
    description: 'A classic heavyweight tee of 100% cotton with a tubular body and a relaxed, durable fit.',
    colours: [WHITE, BLACK, NAVY, SAND, MAROON],
    sizes: shirtSizes(7.95, 'S', '3XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 145,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Basic Softstyle T-Shirt | Gildan 64000',
    brand: 'Gildan',
    model: '64000',
    description: 'A budget-friendly ring-spun cotton tee with a modern classic fit and taped shoulders.',
    colours: [WHITE, BLACK, CHARCOAL, ROYAL, RED],
    sizes: shirtSizes(8.5, 'S', '3XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 586,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Garment-Dyed Heavyweight T-Shirt | Comfort Colors 1717',
    brand: 'Comfort Colors',
    model: '1717',
    description: 'A garment-dyed, ring-spun cotton heavyweight tee with a lived-in softness and a relaxed fit.',
    colours: [WHITE, BLACK, ['Pepper', '#5f605b'], ['Ivory', '#f2ecd9'], ['Blue Jean', '#6b7f95']],
    sizes: shirtSizes(13.95, 'S', '3XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 12,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Organic T-Shirt | Econscious EC1000',
    brand: 'Econscious',
    model: 'EC1000',
    description: 'A classic-fit tee of 100% certified organic ring-spun cotton, pre-shrunk and garment washed.',
    colours: [WHITE, BLACK, ['Oatmeal', '#d8cdb8'], ['Pacific', '#3f6f8a']],
    sizes: shirtSizes(12.95, 'S', '2XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 360,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: "Women's Relaxed T-Shirt | Bella + Canvas 6400",
    brand: 'Bella + Canvas',
    model: '6400',
    description: 'A relaxed-fit women’s tee of soft combed cotton with a slightly longer body and a crew neck.',
    colours: [WHITE, BLACK, PINK, HEATHER],
    sizes: shirtSizes(10.75, 'S', '3XL'),
    printAreas: tee(10, 14),
  },
  {
    id: 100,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Premium V-Neck T-Shirt | Bella + Canvas 3005',
    brand: 'Bella + Canvas',
    model: '3005',
    description: 'A lightweight V-neck of combed ring-spun cotton with a modern fit and a shoulder-to-shoulder tape.',
    colours: [WHITE, BLACK, NAVY, HEATHER],
    sizes: shirtSizes(10.95, 'S', '3XL'),
    printAreas: tee(10, 12),
  },
  {
    id: 162,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Tri-Blend T-Shirt | Bella + Canvas 3413',
    brand: 'Bella + Canvas',
    model: '3413',
    description: 'A tri-blend of cotton, polyester and rayon for a vintage, super-soft feel and a light drape.',
    colours: [
      ['Solid White Triblend', '#f5f5f5'],
      ['Charcoal-Black Triblend', '#2f2f33'],
      ['Navy Triblend', '#2c3453'],
    ],
    sizes: shirtSizes(12.5, 'XS', '2XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 116,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: "Men's Fitted Crew Neck | Next Level 3600",
    brand: 'Next Level',
    model: '3600',
    description: 'A fitted men’s crew of combed ring-spun cotton, side-seamed with a set-in rib collar.',
    colours: [WHITE, BLACK, ['Midnight Navy', '#1c2233'], ['Heather Gray', '#b5b5b5']],
    sizes: shirtSizes(9.95, 'S', '3XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 356,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Unisex Long Sleeve Tee | Bella + Canvas 3501',
    brand: 'Bella + Canvas',
    model: '3501',
    description: 'A long-sleeve jersey tee of airlume combed cotton with a retail fit and ribbed cuffs.',
    colours: [WHITE, BLACK, NAVY, HEATHER],
    sizes: shirtSizes(15.25, 'S', '2XL'),
    printAreas: tee(12, 16),
  },
  {
    id: 240,
    categoryId: C.tshirts,
    type: 'tshirt',
    name: 'Youth Staple Tee | Bella + Canvas 3001Y',
    brand: 'Bella + Canvas',
    model: '3001Y',
    description: 'The staple tee in youth sizes: soft ring-spun cotton, side-seamed, tear-away label.',
    colours: [WHITE, BLACK, ['Heather Columbia Blue', '#8fa9c4'], PINK],
    sizes: [
      ['S', '8.75'],
      ['M', '8.75'],
      ['L', '8.75'],
      ['XL', '8.75'],
    ],
    printAreas: tee(10, 12, false),
  },
  // Hoodies
  {
    id: 146,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Heavy Blend Hoodie | Gildan 18500',
    brand: 'Gildan',
    model: '18500',
    description: 'A classic cotton-polyester fleece pullover with a double-lined hood, pouch pocket and rib cuffs.',
    colours: [WHITE, BLACK, NAVY, ['Sport Grey', '#97999b'], MAROON, FOREST],
    sizes: shirtSizes(22.49, 'S', '3XL'),
    printAreas: tee(13, 13),
  },
  {
    id: 380,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Premium Hoodie | Cotton Heritage M2580',
    brand: 'Cotton Heritage',
    model: 'M2580',
    description: 'A premium ring-spun cotton-polyester hoodie with a soft brushed inside and a tailored fit.',
    colours: [WHITE, BLACK, ['Carbon Grey', '#5d5f63'], ['Navy Blazer', '#252c3e']],
    sizes: shirtSizes(27.95, 'S', '3XL'),
    printAreas: tee(15, 12),
  },
  {
    id: 294,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Champion Hoodie | Champion S700',
    brand: 'Champion',
    model: 'S700',
    description: 'Champion’s Eco Powerblend fleece hoodie with reduced pilling, a jersey-lined hood and the C logo.',
    colours: [WHITE, BLACK, NAVY, ['Light Steel', '#b9bcbf']],
    sizes: shirtSizes(33.95, 'S', '2XL'),
    printAreas: tee(13, 13),
  },
  {
    id: 188,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Fleece Zip Up Hoodie | Bella + Canvas 3739',
    brand: 'Bella + Canvas',
    model: '3739',
    description: 'A full-zip fleece hoodie with a cotton-poly blend, side pockets and a lined hood.',
    colours: [WHITE, BLACK, ['Dark Grey Heather', '#4b4b4d'], NAVY],
    sizes: shirtSizes(32.95, 'S', '2XL'),
    printAreas: tee(10, 10),
  },
  {
    id: 498,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Heavy Blend Zip Hoodie | Gildan 18600',
    brand: 'Gildan',
    model: '18600',
    description: 'A heavy blend full-zip hoodie with a metal zipper, front pouch pockets and a lined hood.',
    colours: [WHITE, BLACK, NAVY, ['Sport Grey', '#97999b']],
    sizes: shirtSizes(28.49, 'S', '3XL'),
    printAreas: tee(10, 10),
  },
  {
    id: 427,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Youth Heavy Blend Hoodie | Gildan 18500B',
    brand: 'Gildan',
    model: '18500B',
    description: 'The classic heavy blend hoodie in youth sizes, with a double-lined hood and a pouch pocket.',
    colours: [WHITE, BLACK, NAVY, RED],
    sizes: [
      ['XS', '19.99'],
      ['S', '19.99'],
      ['M', '19.99'],
      ['L', '19.99'],
      ['XL', '19.99'],
    ],
    printAreas: tee(10, 10, false),
  },
  {
    id: 665,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Organic Hoodie | Stanley/Stella STSU812',
    brand: 'Stanley/Stella',
    model: 'STSU812',
    description: 'An organic cotton and recycled polyester hoodie with a brushed inside and set-in sleeves.',
    colours: [WHITE, BLACK, ['French Navy', '#1f2a44'], ['Heather Grey', '#a9a9a9']],
    sizes: shirtSizes(36.5, 'XS', '2XL'),
    printAreas: tee(12, 12),
  },
  {
    id: 598,
    categoryId: C.hoodies,
    type: 'hoodie',
    name: 'Unisex Lightweight Hoodie | Independent Trading Co. SS1000',
    brand: 'Independent Trading Co.',
    model: 'SS1000',
    description: 'A lightweight terry hoodie for layering, with a relaxed fit and an unlined hood.',
    colours: [WHITE, BLACK, ['Army Heather', '#6a6a4f'], CHARCOAL],
    sizes: shirtSizes(25.95, 'XS', '2XL'),
    printAreas: tee(12, 12),
  },
  // Mugs
  {
    id: 19,
    categoryId: C.mugs,
    type: 'mug',
    name: 'White Glossy Mug',
    brand: 'Printful',
    model: 'White Glossy Mug',
    description: 'A sturdy, glossy white ceramic mug that is dishwasher and microwave safe.',
    colours: [WHITE],
    sizes: [
      ['11 oz', '5.95'],
      ['15 oz', '7.95'],
      ['20 oz', '9.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2475, heightPx: 1155, dpi: 300 },
    ],
  },
  {
    id: 300,
    categoryId: C.mugs,
    type: 'mug',
    name: 'Black Glossy Mug',
    brand: 'Printful',
    model: 'Black Glossy Mug',
    description: 'A black ceramic mug with a glossy finish; prints keep the mug’s black body around the design.',
    colours: [BLACK],
    sizes: [
      ['11 oz', '8.95'],
      ['15 oz', '10.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2475, heightPx: 1155, dpi: 300 },
    ],
  },
  {
    id: 403,
    categoryId: C.mugs,
    type: 'mug',
    name: 'White Ceramic Mug with Color Inside',
    brand: 'Printful',
    model: 'Mug with Color Inside',
    description: 'A white ceramic mug with a coloured glaze inside and on the handle.',
    bodyHex: '#ffffff',
    colours: [
      ['Black', '#0c0c0c'],
      ['Red', '#d0071e'],
      ['Blue', '#1d4f91'],
      ['Yellow', '#f6c600'],
      ['Pink', '#f7a9c4'],
    ],
    sizes: [
      ['11 oz', '8.50'],
      ['15 oz', '10.50'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2475, heightPx: 1155, dpi: 300 },
    ],
  },
  {
    id: 382,
    categoryId: C.mugs,
    type: 'mug',
    name: 'Enamel Mug',
    brand: 'Printful',
    model: 'Enamel Mug',
    description: 'A lightweight steel enamel mug with a silver rim, made for campfires and the kitchen.',
    colours: [WHITE],
    sizes: [['12 oz', '11.95']],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2700, heightPx: 900, dpi: 300 },
    ],
  },
  {
    id: 617,
    categoryId: C.mugs,
    type: 'mug',
    name: 'Travel Mug with a Handle',
    brand: 'Printful',
    model: 'Travel Mug',
    description: 'A stainless steel travel mug with a handle and a splash-proof lid, holding 25 oz.',
    colours: [WHITE],
    sizes: [['25 oz', '16.95']],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2730, heightPx: 1200, dpi: 300 },
    ],
  },
  {
    id: 585,
    categoryId: C.mugs,
    type: 'mug',
    name: 'Stainless Steel Tumbler',
    brand: 'Printful',
    model: 'Tumbler 20 oz',
    description: 'A double-walled stainless steel tumbler that keeps drinks hot or cold, with a clear lid.',
    colours: [WHITE, BLACK],
    sizes: [['20 oz', '17.50']],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'sublimation', widthPx: 2550, heightPx: 2100, dpi: 300 },
    ],
  },
  // Posters
  {
    id: 1,
    categoryId: C.posters,
    type: 'poster',
    name: 'Enhanced Matte Paper Poster (in)',
    brand: 'Printful',
    model: 'Enhanced Matte Paper Poster',
    description: 'A museum-quality poster on thick, durable matte paper that makes any design pop.',
    colours: [WHITE],
    sizes: [
      ['12″×16″', '9.50'],
      ['18″×24″', '14.00'],
      ['24″×36″', '19.25'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 7200, heightPx: 10800, dpi: 300 },
    ],
  },
  {
    id: 2,
    categoryId: C.posters,
    type: 'poster',
    name: 'Enhanced Matte Paper Framed Poster (in)',
    brand: 'Printful',
    model: 'Framed Poster',
    description: 'The enhanced matte poster in a lightweight hardwood frame with acrylite front protector.',
    colours: [BLACK, WHITE, ['Red Oak', '#b07a4f']],
    sizes: [
      ['12″×16″', '31.00'],
      ['18″×24″', '45.00'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 5400, heightPx: 7200, dpi: 300 },
    ],
  },
  {
    id: 171,
    categoryId: C.posters,
    type: 'poster',
    name: 'Premium Luster Photo Paper Poster (in)',
    brand: 'Printful',
    model: 'Luster Photo Paper Poster',
    description: 'A poster on luster photo paper with a subtle sheen and vivid, saturated colours.',
    colours: [WHITE],
    sizes: [
      ['8″×10″', '8.25'],
      ['12″×18″', '11.95'],
      ['24″×36″', '22.50'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 7200, heightPx: 10800, dpi: 300 },
    ],
  },
  {
    id: 268,
    categoryId: C.posters,
    type: 'poster',
    name: 'Enhanced Matte Paper Poster (cm)',
    brand: 'Printful',
    model: 'Enhanced Matte Paper Poster (cm)',
    description: 'The enhanced matte paper poster in metric sizes for European buyers.',
    colours: [WHITE],
    sizes: [
      ['30×40 cm', '9.75'],
      ['50×70 cm', '15.50'],
      ['61×91 cm', '19.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 7205, heightPx: 10748, dpi: 300 },
    ],
  },
  {
    id: 588,
    categoryId: C.posters,
    type: 'poster',
    name: 'Canvas (in)',
    brand: 'Printful',
    model: 'Canvas',
    description: 'A gallery-wrapped canvas on a pine frame, ready to hang.',
    colours: [WHITE],
    sizes: [
      ['12″×12″', '27.95'],
      ['16″×20″', '37.95'],
      ['24″×36″', '61.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 8100, heightPx: 11700, dpi: 300 },
    ],
  },
  // Phone cases
  {
    id: 181,
    categoryId: C.phoneCases,
    type: 'phone_case',
    name: 'Tough Case for iPhone®',
    brand: 'Case-Mate',
    model: 'Tough Case',
    description: 'A dual-layer case with a shock-absorbing inner shell and a glossy printed outer shell.',
    colours: [WHITE],
    sizes: [
      ['iPhone 13', '16.95'],
      ['iPhone 14', '16.95'],
      ['iPhone 15', '16.95'],
      ['iPhone 15 Pro Max', '17.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 879, heightPx: 1830, dpi: 300 },
    ],
  },
  {
    id: 601,
    categoryId: C.phoneCases,
    type: 'phone_case',
    name: 'Clear Case for iPhone®',
    brand: 'Printful',
    model: 'Clear Case',
    description: 'A slim, flexible clear TPU case that lets the phone’s colour show around the design.',
    colours: [['Clear', '#e8eef2']],
    sizes: [
      ['iPhone 13', '9.95'],
      ['iPhone 14', '9.95'],
      ['iPhone 15', '9.95'],
      ['iPhone 15 Pro', '9.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'uv', widthPx: 819, heightPx: 1713, dpi: 300 },
    ],
  },
  {
    id: 269,
    categoryId: C.phoneCases,
    type: 'phone_case',
    name: 'Tough Case for Samsung®',
    brand: 'Case-Mate',
    model: 'Tough Case Samsung',
    description: 'The dual-layer tough case cut for Samsung Galaxy phones.',
    colours: [WHITE],
    sizes: [
      ['Galaxy S22', '16.95'],
      ['Galaxy S23', '16.95'],
      ['Galaxy S24', '16.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 879, heightPx: 1830, dpi: 300 },
    ],
  },
  {
    id: 646,
    categoryId: C.phoneCases,
    type: 'phone_case',
    name: 'Biodegradable Phone Case',
    brand: 'Printful',
    model: 'Biodegradable Case',
    description: 'A compostable case of plant-based biopolymer with a matte finish.',
    colours: [BLACK],
    sizes: [
      ['iPhone 13', '15.95'],
      ['iPhone 14', '15.95'],
      ['iPhone 15', '15.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'uv', widthPx: 780, heightPx: 1620, dpi: 300 },
    ],
  },
  {
    id: 684,
    categoryId: C.phoneCases,
    type: 'phone_case',
    name: 'Snap Case for iPhone®',
    brand: 'Printful',
    model: 'Snap Case',
    description: 'A thin, glossy polycarbonate case that snaps on, with printed sides.',
    colours: [WHITE],
    sizes: [
      ['iPhone 14', '12.50'],
      ['iPhone 15', '12.50'],
      ['iPhone 15 Pro', '12.50'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 879, heightPx: 1830, dpi: 300 },
    ],
  },
  // Tote bags
  {
    id: 367,
    categoryId: C.toteBags,
    type: 'tote',
    name: 'Eco Tote Bag',
    brand: 'Econscious',
    model: 'EC8000',
    description: 'A spacious 100% organic cotton tote with long handles, printed on one side.',
    colours: [['Oyster', '#eee6d4'], BLACK],
    sizes: [['15″×16″', '11.95']],
    printAreas: [
      { placement: 'front', title: 'Front print', technique: 'dtg', widthPx: 2100, heightPx: 2100, dpi: 150 },
    ],
  },
  {
    id: 637,
    categoryId: C.toteBags,
    type: 'tote',
    name: 'Large Organic Tote Bag',
    brand: 'Stanley/Stella',
    model: 'STAU760',
    description: 'A large organic cotton tote with reinforced handles for heavy groceries.',
    colours: [['Natural', '#efe6d2'], BLACK],
    sizes: [['16.5″×15″', '14.75']],
    printAreas: [
      { placement: 'front', title: 'Front print', technique: 'dtg', widthPx: 1950, heightPx: 2250, dpi: 150 },
    ],
  },
  {
    id: 274,
    categoryId: C.toteBags,
    type: 'tote',
    name: 'All-Over Print Large Tote Bag w/ Pocket',
    brand: 'Printful',
    model: 'AOP Large Tote',
    description: 'A polyester tote printed edge to edge, with an inside pocket and cotton handles.',
    colours: [
      ['Black handles', '#1a1a1a'],
      ['Red handles', '#b3121d'],
    ],
    sizes: [['16″×20″', '23.95']],
    printAreas: [
      { placement: 'front', title: 'Front', technique: 'sublimation', widthPx: 2550, heightPx: 3150, dpi: 150 },
    ],
  },
  {
    id: 84,
    categoryId: C.toteBags,
    type: 'tote',
    name: 'Tote Bag | Liberty Bags 8502',
    brand: 'Liberty Bags',
    model: '8502',
    description: 'A simple cotton canvas tote with 22″ handles, good for everyday carry.',
    colours: [['Natural', '#efe6d2'], BLACK, NAVY],
    sizes: [['15″×15″', '12.25']],
    printAreas: [
      { placement: 'front', title: 'Front print', technique: 'dtg', widthPx: 1800, heightPx: 1800, dpi: 150 },
    ],
  },
  // Stickers
  {
    id: 358,
    categoryId: C.stickers,
    type: 'sticker',
    name: 'Kiss-Cut Stickers',
    brand: 'Printful',
    model: 'Kiss-Cut Stickers',
    description: 'Vinyl stickers with a white border, kiss-cut on a backing sheet that peels off easily.',
    colours: [WHITE],
    sizes: [
      ['3″×3″', '2.29'],
      ['4″×4″', '2.49'],
      ['5.5″×5.5″', '2.79'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 1650, heightPx: 1650, dpi: 300 },
    ],
  },
  {
    id: 505,
    categoryId: C.stickers,
    type: 'sticker',
    name: 'Bubble-free Stickers',
    brand: 'Printful',
    model: 'Bubble-free Stickers',
    description: 'Glossy vinyl stickers whose air-release backing leaves no bubbles when applied.',
    colours: [WHITE],
    sizes: [
      ['3″×3″', '2.49'],
      ['4″×4″', '2.79'],
      ['5.5″×5.5″', '3.29'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 1650, heightPx: 1650, dpi: 300 },
    ],
  },
  {
    id: 616,
    categoryId: C.stickers,
    type: 'sticker',
    name: 'Kiss Cut Sticker Sheet',
    brand: 'Printful',
    model: 'Sticker Sheet',
    description: 'A 5.83″×8.27″ sheet of kiss-cut vinyl stickers in one print.',
    colours: [WHITE],
    sizes: [['5.83″×8.27″', '7.95']],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 1750, heightPx: 2481, dpi: 300 },
    ],
  },
  {
    id: 661,
    categoryId: C.stickers,
    type: 'sticker',
    name: 'Die-Cut Magnets',
    brand: 'Printful',
    model: 'Die-Cut Magnets',
    description: 'Flexible die-cut magnets cut around the design, for fridges and cars.',
    colours: [WHITE],
    sizes: [
      ['3″×3″', '4.95'],
      ['4″×4″', '5.95'],
    ],
    printAreas: [
      { placement: 'default', title: 'Print file', technique: 'digital', widthPx: 1200, heightPx: 1200, dpi: 300 },
    ],
  },
];
