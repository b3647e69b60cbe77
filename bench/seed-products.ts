// Seeds one workspace with N products as a busy seller would have them: titles, descriptions and tags from word
// lists, every product type, drafts, ready and live products (live ones pushed to a store), four size variants and
// a main mockup each, spread over the past year, plus a month of store orders. Plain SQL through any query function,
// so the same seed fills PGlite and PostgreSQL.

const ADJECTIVES = [
  'vintage',
  'retro',
  'cosmic',
  'minimal',
  'bold',
  'floral',
  'funny',
  'cute',
  'dark',
  'neon',
  'pastel',
  'wild',
  'classic',
  'rustic',
  'urban',
  'tropical',
  'spooky',
  'golden',
  'lazy',
  'happy',
];
const NOUNS = [
  'otter',
  'mountain',
  'sunset',
  'coffee',
  'cat',
  'dog',
  'wave',
  'forest',
  'rocket',
  'skull',
  'tiger',
  'fox',
  'bicycle',
  'guitar',
  'cactus',
  'moon',
  'owl',
  'whale',
  'pizza',
  'dragon',
  'panda',
  'lighthouse',
  'mushroom',
  'octopus',
  'camper',
  'bee',
  'llama',
  'robot',
  'taco',
  'unicorn',
  'penguin',
  'bear',
  'anchor',
  'feather',
  'flamingo',
  'hedgehog',
  'koala',
  'lemon',
  'maple',
  'narwhal',
];
const TYPES = ['tshirt', 'hoodie', 'mug', 'poster', 'sticker', 'tote', 'phone_case'];
const TAGS = ['gift', 'birthday', 'summer', 'christmas', 'outdoors', 'pets', 'nature', 'music', 'travel', 'kitchen'];

const arr = (xs: string[]) => `ARRAY[${xs.map((x) => `'${x}'`).join(',')}]::text[]`;

/** Statements that fill `workspaceId` with `n` products (ids derived from the index, so links need no lookups). */
export function seedStatements(workspaceId: string, n: number): string[] {
  const ws = `'${workspaceId}'::uuid`;
  const pid = (i: string) => `md5('product-' || ${i})::uuid`;
  return [
    `INSERT INTO designs (id, workspace_id, name, type, mime_type, bytes, width, height, source, original_key, print_key, thumbnail_key, created_at)
     SELECT md5('design-' || d)::uuid, ${ws}, 'design-' || d || '.png', 'png', 'image/png', 123456, 4500, 5400, 'upload',
       'designs/' || d || '/original.png', 'designs/' || d || '/print.png', 'designs/' || d || '/thumb.png', now() - interval '400 days'
     FROM generate_series(1, 100) AS d`,
    `INSERT INTO mockups (id, workspace_id, design_id, product_type, template_id, color, adjustments, storage_key, preview_key, width, height, created_at)
     SELECT md5('mockup-' || i)::uuid, ${ws}, md5('design-' || (i % 100 + 1))::uuid, 'tshirt', 'tshirt-front', 'white',
       '{"scale":90,"rotation":0,"x":0,"y":0,"opacity":100}'::jsonb, 'mockups/' || i || '.png', 'mockups/' || i || '.preview.png',
       2000, 2500, now() - (i * interval '50 minutes')
     FROM generate_series(1, ${n}) AS i`,
    `INSERT INTO products (id, workspace_id, title, description, price, tags, product_type, status, design_id, catalog_product_id,
       placements, adjustments, created_at, updated_at, content_updated_at)
     SELECT ${pid('i')}, ${ws},
       initcap((${arr(ADJECTIVES)})[i % 20 + 1] || ' ' || (${arr(NOUNS)})[i % 40 + 1]) || ' ' || (${arr(TYPES)})[i % 7 + 1] || ' no. ' || i,
       'A ' || (${arr(ADJECTIVES)})[(i / 7) % 20 + 1] || ' design printed on demand. Soft, durable and made to order for ' ||
         (${arr(NOUNS)})[(i / 3) % 40 + 1] || ' lovers.',
       (19.99 + i % 20)::numeric,
       jsonb_build_array((${arr(TAGS)})[i % 10 + 1], (${arr(TAGS)})[(i / 10) % 10 + 1], 'design ' || (i % 500)),
       (${arr(TYPES)})[i % 7 + 1],
       (ARRAY['draft','draft','ready','ready','live']::text[])[i % 5 + 1],
       md5('design-' || (i % 100 + 1))::uuid, 71,
       '[{"placement":"front","technique":"dtg"}]'::jsonb, '{"scale":90,"rotation":0,"x":0,"y":0,"opacity":100}'::jsonb,
       now() - (i * interval '50 minutes'), now() - (i * interval '50 minutes'), now() - (i * interval '50 minutes')
     FROM generate_series(1, ${n}) AS i`,
    `INSERT INTO product_variants (workspace_id, product_id, position, option, catalog_variant_id, color, color_hex, size, price, sku, base_cost)
     SELECT ${ws}, ${pid('i')}, s - 1, 'White / ' || (ARRAY['S','M','L','XL'])[s], 4010 + s, 'White', '#ffffff',
       (ARRAY['S','M','L','XL'])[s], (19.99 + i % 20 + (CASE WHEN s = 4 THEN 2 ELSE 0 END))::numeric,
       'PF-' || i || '-' || s, 9.25
     FROM generate_series(1, ${n}) AS i, generate_series(1, 4) AS s`,
    `INSERT INTO product_mockups (workspace_id, product_id, mockup_id, color, main, position)
     SELECT ${ws}, ${pid('i')}, md5('mockup-' || i)::uuid, 'White', true, 0 FROM generate_series(1, ${n}) AS i`,
    `INSERT INTO integrations (id, workspace_id, kind, platform, external_id, store_name, status, sandbox, verified_at)
     VALUES (md5('store')::uuid, ${ws}, 'store', 'shopify', 'bench.myshopify.com', 'Bench', 'connected', true, now())`,
    `INSERT INTO publications (workspace_id, product_id, integration_id, remote_product_id, remote_url, status, published_at)
     SELECT ${ws}, ${pid('i')}, md5('store')::uuid, 'gid://shopify/Product/' || i, 'https://bench.myshopify.com/products/' || i,
       'published', now() - (i * interval '50 minutes') + interval '5 minutes'
     FROM generate_series(1, ${n}) AS i WHERE i % 5 = 4`,
    // Store sales the dashboard reads (migration 0008 moved store_orders into orders, as 'external' orders).
    `INSERT INTO orders (workspace_id, integration_id, remote_order_id, name, currency, revenue, cost, status, ordered_at)
     SELECT ${ws}, md5('store')::uuid, 'order-' || o, '#order-' || o, 'USD', (25 + o % 30)::numeric, 11.50,
       'external', now() - (o * interval '90 minutes')
     FROM generate_series(1, 500) AS o`,
  ];
}

/** Search words of the bench: one in about 1 of 40 titles, one only in tags, one found nowhere. */
export const SEARCHES = { title: 'otter', tag: 'christmas', none: 'zeppelin' };
