// `@podforge/contract/plain`: the contract's plain values and rules (labels, limits, pure functions), with no zod.
// A browser module that needs only these imports them from here, so zod loads only with the code that parses.
// `@podforge/contract` exports all of these too, beside the zod schemas.

export * from './accounts';
export * from './ai';
export * from './amazon';
export * from './bulk';
export * from './catalog';
export * from './common';
export * from './designs';
export * from './integrations';
export * from './listing';
export * from './mockup-geometry';
export * from './mockups';
export * from './orders';
export * from './pricing';
export * from './printers';
export * from './products';
export * from './routing';
export * from './schedules';
export * from './stores';
