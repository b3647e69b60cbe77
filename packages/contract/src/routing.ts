import { z } from 'zod';
import { FULFILMENT_NETWORKS } from './plain/printers';
import { ROUTING_MODES } from './plain/routing';

export const ZRoutingRule = z
  .object({
    mode: z.enum(ROUTING_MODES),
    /** The printer of a `fixed` rule (a provider id, e.g. 'gelato'). */
    provider: z.string().trim().min(1).max(40).nullable().default(null),
  })
  .refine((r) => r.mode !== 'fixed' || r.provider !== null, {
    message: 'a fixed rule names its printer (provider)',
    path: ['provider'],
  });
export type TRoutingRule = z.infer<typeof ZRoutingRule>;

/** `GET /api/products/:id/quotes?country=US`: one unit of a variant (the first unless named). */
export const ZQuotesQuery = z.object({
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter ISO code like US')
    .transform((c) => c.toUpperCase()),
  state: z.string().trim().max(10).optional(),
  zip: z.string().trim().max(15).optional(),
  variantId: z.uuid().optional(),
  quantity: z.coerce.number().int().min(1).max(100).default(1),
});
export type TQuotesQuery = z.infer<typeof ZQuotesQuery>;

/**
 * `GET /api/quotes/blank?network=printful&catalogProductId=71&catalogVariantId=4012&country=US`: one catalogue
 * variant of a printer network (a product not yet saved: the price editor's shipping line), quoted by the printer its
 * orders would go to (the network's connected account, else its built-in sandbox).
 */
export const ZBlankQuoteQuery = z.object({
  network: z.enum(FULFILMENT_NETWORKS),
  catalogProductId: z.coerce.number().int().positive(),
  catalogVariantId: z.string().trim().min(1).max(100),
  country: ZQuotesQuery.shape.country,
  quantity: z.coerce.number().int().min(1).max(100).default(1),
});
export type TBlankQuoteQuery = z.infer<typeof ZBlankQuoteQuery>;

export const ZPrinterQuote = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    provider: z.string(),
    name: z.string(),
    currency: z.string(),
    products: z.string(),
    shipping: z.string(),
    total: z.string(),
    shippingMethod: z.string().nullable(),
    minDeliveryDays: z.number().int().nullable(),
    maxDeliveryDays: z.number().int().nullable(),
  }),
  z.object({ ok: z.literal(false), provider: z.string(), name: z.string(), reason: z.string() }),
]);
export type TPrinterQuote = z.infer<typeof ZPrinterQuote>;

export const ZProductQuotes = z.object({
  country: z.string(),
  variantId: z.string(),
  quantity: z.number().int(),
  quotes: z.array(ZPrinterQuote),
});
export type TProductQuotes = z.infer<typeof ZProductQuotes>;
