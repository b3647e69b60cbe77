export * from './common';
export * from './dashboard';
