export * from './ai';
export * from './catalog';
export * from './common';
export * from './dashboard';
export * from './designs';
export * from './integrations';
export * from './mockups';
export * from './products';
