import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  buildSchema,
  type DocumentNode,
  GraphQLEnumType,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLSchema,
  getVariableValues,
  Kind,
  parse,
  TypeInfo,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { DEFAULT_SHOPIFY_API_VERSION } from '../src/integrations/shopify/api-versions';
import { ShopifyClient } from '../src/integrations/shopify/client';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { createFulfillment, fulfillmentOrders, recentOrdersWithLines } from '../src/integrations/shopify/orders-client';

/**
 * Every Admin GraphQL document the Shopify client sends, recorded by the fake while the client runs each of its
 * calls, is valid on Shopify's 2026-04 schema (the version we pin), with its variables, and uses nothing deprecated:
 * no deprecated field, argument, input field or enum value, in the document or in the variables.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
/** The reference schema of the version we pin. */
const SCHEMA_PATH = `shared/reference/shopify/admin-${DEFAULT_SHOPIFY_API_VERSION}.graphql`;
/** `../shared/` beside the repository (CI); a git worktree sits one level deeper, so its ancestors are tried too. */
const candidates = [1, 2, 3].map((up) => path.resolve(repoRoot, '../'.repeat(up), SCHEMA_PATH));
const SCHEMA_FILE = candidates.find((f) => existsSync(f));
/** The files that send Admin GraphQL; each operation they name must be among those recorded. */
const SENDERS = ['src/integrations/shopify/client.ts', 'src/integrations/shopify/orders-client.ts'];

let schema: GraphQLSchema;
let fake: FakeShopify;
const shop = 'schema-shop.myshopify.com';

beforeAll(async () => {
  if (!SCHEMA_FILE) {
    throw new Error(`Shopify's Admin schema is missing: expected ${candidates[0]} (shared/ beside the repository)`);
  }
  schema = buildSchema(readFileSync(SCHEMA_FILE, 'utf8'));
  fake = await startFakeShopify({ apiKey: 'k', apiSecret: 's', bucket: { maximum: 100_000, restoreRate: 10_000 } });
});
afterAll(async () => {
  await fake?.close();
});

/** Deprecated things an input value uses, walking it along its input type. */
function deprecatedInValue(type: GraphQLInputType, value: unknown, at: string): string[] {
  if (value === null || value === undefined) return [];
  if (type instanceof GraphQLNonNull) return deprecatedInValue(type.ofType, value, at);
  if (type instanceof GraphQLList) {
    return (Array.isArray(value) ? value : [value]).flatMap((v, i) => deprecatedInValue(type.ofType, v, `${at}[${i}]`));
  }
  if (type instanceof GraphQLEnumType) {
    const reason = type.getValue(String(value))?.deprecationReason;
    return reason ? [`${at}: enum value ${type.name}.${value} is deprecated (${reason})`] : [];
  }
  if (type instanceof GraphQLInputObjectType && typeof value === 'object') {
    const fields = type.getFields();
    return Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
      const field = fields[key];
      if (!field) return [];
      const own = field.deprecationReason
        ? [`${at}.${key}: ${type.name}.${key} is deprecated (${field.deprecationReason})`]
        : [];
      return [...own, ...deprecatedInValue(field.type, v, `${at}.${key}`)];
    });
  }
  return [];
}

/** Validation errors and deprecated uses of one document sent with these variables. */
function problemsOf(s: GraphQLSchema, query: string, variables: Record<string, unknown>): string[] {
  let doc: DocumentNode;
  try {
    doc = parse(query);
  } catch (e) {
    return [`does not parse: ${(e as Error).message}`];
  }
  const problems = validate(s, doc).map((e) => e.message);
  if (problems.length) return problems;
  const typeInfo = new TypeInfo(s);
  visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const def = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (def?.deprecationReason) {
          problems.push(`field ${parent?.name}.${node.name.value} is deprecated (${def.deprecationReason})`);
        }
      },
      Argument(node) {
        const arg = typeInfo.getArgument();
        if (arg?.deprecationReason)
          problems.push(`argument ${node.name.value} is deprecated (${arg.deprecationReason})`);
      },
      ObjectField(node) {
        const parent = typeInfo.getParentInputType();
        if (parent instanceof GraphQLInputObjectType) {
          const reason = parent.getFields()[node.name.value]?.deprecationReason;
          if (reason) problems.push(`input field ${parent.name}.${node.name.value} is deprecated (${reason})`);
        }
      },
      EnumValue(node) {
        const reason = typeInfo.getEnumValue()?.deprecationReason;
        if (reason) problems.push(`enum value ${node.value} is deprecated (${reason})`);
      },
    }),
  );
  for (const op of doc.definitions) {
    if (op.kind !== Kind.OPERATION_DEFINITION) continue;
    const coerced = getVariableValues(s, op.variableDefinitions ?? [], variables);
    if (coerced.errors) problems.push(...coerced.errors.map((e) => e.message));
    for (const def of op.variableDefinitions ?? []) {
      const type = typeFromAST(s, def.type) as GraphQLInputType | undefined;
      const name = def.variable.name.value;
      if (type) problems.push(...deprecatedInValue(type, variables[name], `$${name}`));
    }
  }
  return problems;
}

/** Operation names written in the senders' sources (`query name(` / `mutation name {`). */
function operationsInSources(): string[] {
  const names = new Set<string>();
  for (const file of SENDERS) {
    const text = readFileSync(path.resolve(here, '..', file), 'utf8');
    for (const m of text.matchAll(/[`'"]\s*(?:query|mutation)\s+(\w+)/g)) names.add(m[1] as string);
  }
  return [...names].sort();
}

describe("the Shopify client's GraphQL on Shopify's 2026-04 Admin schema", () => {
  it('asks for 2026-04 by default', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/podforge-schema-test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '' });
    expect(config.shopifyApiVersion).toBe('2026-04');
    expect(DEFAULT_SHOPIFY_API_VERSION).toBe('2026-04');
  });

  it('sends only valid documents and variables, with nothing deprecated', async () => {
    const client = new ShopifyClient({
      apiKey: 'k',
      apiSecret: 's',
      scopes: [
        'write_products',
        'write_publications',
        'read_orders',
        'write_merchant_managed_fulfillment_orders',
        'write_files',
      ],
      apiVersion: loadConfig({ DATA_DIR: '/tmp/podforge-schema-test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '' })
        .shopifyApiVersion,
      shopBaseUrl: (name) => `${fake.url}/${name}`,
      sleep: async () => {},
      log: (message) => {
        throw new Error(message);
      },
    });
    const approved = await fetch(client.authorizeUrl(shop, 'st', 'http://app.test/cb'), { redirect: 'manual' });
    const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
    const { accessToken: token } = await client.exchangeCode(shop, code);

    await client.shop(shop, token);
    const resourceUrl = await client.stagedUpload(shop, token, {
      filename: 'a.png',
      mimeType: 'image/png',
      bytes: Buffer.from('not really a png'),
    });
    const product = await client.productSet(shop, token, {
      title: 'Schema Tee',
      handle: 'schema-tee',
      descriptionHtml: '<p>Tee</p>',
      productType: 'tshirt',
      tags: ['podforge'],
      status: 'ACTIVE',
      files: [{ originalSource: resourceUrl, contentType: 'IMAGE', alt: 'front' }],
      productOptions: [{ name: 'Size', position: 1, values: [{ name: 'S' }] }],
      variants: [
        {
          optionValues: [{ optionName: 'Size', name: 'S' }],
          price: '20.00',
          sku: 'SCHEMA-S',
          inventoryPolicy: 'CONTINUE',
          inventoryItem: { tracked: false },
        },
      ],
    } as unknown as Parameters<ShopifyClient['productSet']>[2]);
    const publication = await client.onlineStorePublicationId(shop, token);
    await client.publish(shop, token, product.id, publication);
    await client.productMedia(shop, token, product.id);
    await client.products(shop, token);
    await client.listings(shop, token, [product.id]);
    await client.webhookSubscriptionCreate(shop, token, 'ORDERS_PAID', 'https://app.example.com/api/webhooks/shopify');
    const order = await fake.orders.placePaidOrder(shop, {
      lines: [{ sku: 'SCHEMA-S', quantity: 1 }],
      address: null,
    });
    await client.recentOrders(shop, token);
    await recentOrdersWithLines(client, shop, token);
    // Without protected customer data approval the orders are read without what Shopify withholds.
    fake.setProtectedCustomerData('level1');
    expect((await recentOrdersWithLines(client, shop, token)).withheld).toEqual(['shippingAddress']);
    fake.setProtectedCustomerData('none');
    expect((await recentOrdersWithLines(client, shop, token)).withheld).toEqual(['customer', 'shippingAddress']);
    fake.setProtectedCustomerData('level2');
    const fos = await fulfillmentOrders(client, shop, token, String(order.id));
    await createFulfillment(client, shop, token, {
      lines: fos.fulfillmentOrders.map((f) => ({
        fulfillmentOrderId: f.id,
        fulfillmentOrderLineItems: f.lineItems.nodes.map((l) => ({ id: l.id, quantity: l.remainingQuantity })),
      })),
      company: 'UPS',
      number: '1Z999',
      url: 'https://ups.example/1Z999',
    });
    await client.archiveProduct(shop, token, product.id);
    await client.deleteProduct(shop, token, product.id);

    const sent = fake.received;
    expect(new Set(sent.map((r) => `${r.asked} served ${r.served}`))).toEqual(new Set(['2026-04 served 2026-04']));
    const recorded = new Set(sent.map((r) => /(?:query|mutation)\s+(\w+)/.exec(r.query)?.[1]));
    expect(operationsInSources().filter((name) => !recorded.has(name))).toEqual([]);
    const problems = sent.flatMap((r) =>
      problemsOf(schema, r.query, r.variables).map((p) => `${/(?:query|mutation)\s+(\w+)/.exec(r.query)?.[1]}: ${p}`),
    );
    expect([...new Set(problems)]).toEqual([]);
  });

  it("the fake Shopify runs on the same schema: its shipped copy is the reference's", () => {
    const shipped = gunzipSync(
      readFileSync(path.resolve(here, '..', `assets/shopify/admin-${DEFAULT_SHOPIFY_API_VERSION}.graphql.gz`)),
    );
    expect(shipped.equals(readFileSync(SCHEMA_FILE as string))).toBe(true);
  });

  it('counts a deprecated field and a removed input field as failures', () => {
    expect(problemsOf(schema, 'query { publications(first: 1) { nodes { name } } }', {})).toEqual([
      expect.stringContaining('Publication.name is deprecated'),
    ]);
    const create = `mutation w($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) { userErrors { message } } }`;
    const problems = problemsOf(schema, create, {
      topic: 'ORDERS_PAID',
      webhookSubscription: { callbackUrl: 'https://x.example' },
    });
    expect(problems.join('\n')).toContain('callbackUrl');
  });
});
