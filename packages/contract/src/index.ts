export * from './common';
export * from './dashboard';
export * from './mockups';
