/** Which connected printer takes each order (a workspace setting); `first` is the first connected printer. */
export const ROUTING_MODES = ['first', 'fixed', 'cheapest', 'fastest'] as const;
export type TRoutingMode = (typeof ROUTING_MODES)[number];
