import { describe, expect, it } from 'vitest';
import { OpenApiRequestValidator } from '../openapi/request-validator';
import { EtsyClient } from './client';

/**
 * Every request the Etsy client can send has its operation in the transcription of Etsy's OAS the fake checks
 * requests against (assets/reference/etsy-v3.requests.json), and is valid there: a call with no operation would
 * reach the fake unchecked, so a new client method must come with its operation transcribed.
 */

type Sent = { method: string; url: URL; contentType: string; body: unknown };

/** A client whose every request is recorded and answered with an empty page (or an empty object). */
function recordingClient() {
  const sent: Sent[] = [];
  const client = new EtsyClient({
    keystring: 'key',
    sharedSecret: 'secret',
    apiBase: 'https://openapi.etsy.com',
    tokenBase: 'https://api.etsy.com',
    connectBase: 'https://www.etsy.com',
    fetch: async (input, init) => {
      const contentType = new Headers(init?.headers).get('content-type') ?? '';
      const raw = init?.body;
      const body =
        raw === undefined || raw === null
          ? undefined
          : raw instanceof FormData
            ? new URLSearchParams(
                [...raw.entries()].map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : v.name]),
              )
            : contentType.includes('application/json')
              ? JSON.parse(String(raw))
              : new URLSearchParams(String(raw));
      sent.push({ method: init?.method ?? 'GET', url: new URL(String(input)), contentType, body });
      return new Response(JSON.stringify({ count: 0, results: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { client, sent };
}

/** Each API method of the client with arguments as the app passes them (the OAuth token calls are not Open API ones). */
const CALLS: Record<string, (c: EtsyClient) => Promise<unknown>> = {
  me: (c) => c.me('tok'),
  shop: (c) => c.shop('tok', '11'),
  shippingProfiles: (c) => c.shippingProfiles('tok', '11'),
  processingProfiles: (c) => c.processingProfiles('tok', '11'),
  productionPartners: (c) => c.productionPartners('tok', '11'),
  returnPolicies: (c) => c.returnPolicies('tok', '11'),
  createReturnPolicy: (c) => c.createReturnPolicy('tok', '11', { accepts_returns: false, accepts_exchanges: false }),
  taxonomy: (c) => c.taxonomy('tok'),
  createDraftListing: (c) =>
    c.createDraftListing('tok', '11', {
      title: 'Sunset Tee',
      description: 'A warm sunset.',
      price: 24,
      quantity: 999,
      who_made: 'i_did',
      when_made: 'made_to_order',
      taxonomy_id: 482,
      shipping_profile_id: 5,
      readiness_state_id: 6,
      return_policy_id: 7,
      production_partner_ids: [8],
      tags: ['sunset', 'tee'],
      type: 'physical',
      is_supply: false,
    }),
  listingsByShop: (c) => c.listingsByShop('tok', '11', 'draft'),
  getListing: (c) => c.getListing('tok', '22'),
  updateListing: (c) =>
    c.updateListing('tok', '11', '22', {
      title: 'Sunset Tee',
      tags: ['a', 'b'],
      return_policy_id: '7',
      state: 'active',
    }),
  deleteListing: (c) => c.deleteListing('tok', '22'),
  images: (c) => c.images('tok', '22'),
  uploadImage: (c) => c.uploadImage('tok', '11', '22', { bytes: Buffer.from('png'), name: 'front.png', rank: 1 }),
  deleteImage: (c) => c.deleteImage('tok', '11', '22', 33),
  inventory: (c) => c.inventory('tok', '22'),
  updateInventory: (c) =>
    c.updateInventory('tok', '22', {
      products: [
        {
          sku: 'PF-1',
          property_values: [{ property_id: 513, value_ids: [], property_name: 'Color', values: ['Red'] }],
          offerings: [{ price: 24, quantity: 999, is_enabled: true, readiness_state_id: 6 }],
        },
      ],
      price_on_property: [513],
      quantity_on_property: [],
      sku_on_property: [513],
    }),
  variationImages: (c) => c.variationImages('tok', '11', '22'),
  receipts: (c) =>
    c.receipts('tok', '11', { minLastModified: 1_700_000_000, sortOn: 'updated', sortOrder: 'asc', wasPaid: true }),
  receipt: (c) => c.receipt('tok', '11', '44'),
  createReceiptShipment: (c) =>
    c.createReceiptShipment('tok', '11', '44', { tracking_code: '9400', carrier_name: 'usps', note_to_buyer: 'x' }),
  updateVariationImages: (c) =>
    c.updateVariationImages('tok', '11', '22', [{ property_id: 513, value_id: 1, image_id: 33 }]),
};

/** The client's methods that are not Open API calls (OAuth, the request helper itself and its pacing). */
const NOT_OPEN_API = new Set(['constructor', 'authorizeUrl', 'token', 'exchangeCode', 'refresh', 'request', 'pace']);

describe("the Etsy client against Etsy's OAS as transcribed for the fake", () => {
  const etsy = OpenApiRequestValidator.fromAsset('etsy-v3.requests.json', { contentTypes: 'lenient' });

  it('every API method of the client is exercised here', () => {
    const methods = Object.getOwnPropertyNames(EtsyClient.prototype).filter((name) => !NOT_OPEN_API.has(name));
    expect(methods.filter((name) => !(name in CALLS))).toEqual([]);
  });

  it.each(Object.keys(CALLS))(
    '%s: its requests have an operation in the transcription and are valid there',
    async (name) => {
      const { client, sent } = recordingClient();
      await (CALLS[name] as (c: EtsyClient) => Promise<unknown>)(client);
      expect(sent.length).toBeGreaterThan(0);
      for (const request of sent) {
        const where = `${request.method} ${request.url.pathname}`;
        expect(etsy.operationOf(request.method, request.url.pathname), where).not.toBeNull();
        const problem = etsy.check({
          method: request.method,
          pathname: request.url.pathname,
          query: request.url.searchParams,
          headers: {},
          body: request.body,
          contentType: request.contentType,
        });
        expect(problem, where).toBeNull();
      }
    },
  );
});
