/** Which connected printer takes each order (a workspace setting); `first` is the first connected printer. */
export const ROUTING_MODES = ['first', 'fixed', 'cheapest', 'fastest'] as const;
export type TRoutingMode = (typeof ROUTING_MODES)[number];

/** The printers an order may go to, by provider id (`orders.fulfillment_provider`), in the seller's words. */
export const PRINTER_PROVIDERS = ['printful', 'sandbox', 'gelato', 'gelato-sandbox'] as const;
export type TPrinterProvider = (typeof PRINTER_PROVIDERS)[number];
export const PRINTER_LABELS: Record<TPrinterProvider, string> = {
  printful: 'Printful',
  sandbox: 'Printful Sandbox',
  gelato: 'Gelato',
  'gelato-sandbox': 'Gelato Sandbox',
};
