export * from './catalog';
export * from './common';
export * from './dashboard';
export * from './designs';
export * from './mockups';
