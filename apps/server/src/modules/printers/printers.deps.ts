import type { FulfilmentProviders } from './fulfilment-provider';

/** Every printer adapter, by provider id: orders go to the printer through the FulfilmentProvider port. */
export type PrintersDeps = { printers: FulfilmentProviders };
