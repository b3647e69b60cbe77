import type { CoreDeps } from '../../lib/core-deps';
import type { PrintifyService } from './printify.service';
import type { PrintifySandbox } from './printify-sandbox';

/** Printify (connection, catalogue) and the built-in Printify sandbox (its routes and tick job). */
export type PrintifyDeps = Pick<CoreDeps, 'config' | 'jobs'> & {
  printify: PrintifyService;
  printifySandbox: PrintifySandbox;
};
