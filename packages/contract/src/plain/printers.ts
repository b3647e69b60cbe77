/**
 * The printer networks Podforge prints with. A product records its network (`provider`); its orders go to that
 * network's connected account, or its built-in sandbox. Gelato is listed before its adapter is registered: the
 * providers list says so (`available: false`) until it is.
 */
export const FULFILMENT_NETWORKS = ['printful', 'printify', 'gelato'] as const;
export type TFulfilmentNetwork = (typeof FULFILMENT_NETWORKS)[number];
/**
 * The network a product is made by when it names none: the one whose catalogue is bundled and whose blanks are each
 * type's default (`DEFAULT_CATALOG_PRODUCT`); products made before networks were recorded are its.
 */
export const DEFAULT_FULFILMENT_NETWORK: TFulfilmentNetwork = 'printful';

/** Printify names no currency anywhere: the seller states the one their Printify account bills in. */
export const PRINTIFY_BILLING_CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD'] as const;

/** The printers an order may go to, by adapter id (`orders.fulfillmentProvider`): each network's own and its sandbox. */
export const PRINTER_PROVIDERS = [
  'printful',
  'sandbox',
  'printify',
  'printify-sandbox',
  'gelato',
  'gelato-sandbox',
] as const;
export type TPrinterProvider = (typeof PRINTER_PROVIDERS)[number];

/** A printer adapter's id (`orders.fulfillmentProvider`) in the seller's words. */
export const PRINTER_LABELS: Record<TPrinterProvider, string> = {
  printful: 'Printful',
  sandbox: 'Printful Sandbox',
  printify: 'Printify',
  'printify-sandbox': 'Printify Sandbox',
  gelato: 'Gelato',
  'gelato-sandbox': 'Gelato Sandbox',
};
export const printerLabel = (id: string) => PRINTER_LABELS[id as TPrinterProvider] ?? id;
