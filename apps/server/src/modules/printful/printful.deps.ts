import type { CoreDeps } from '../../lib/core-deps';
import type { PrintfulService } from './printful.service';
import type { PrintfulSandbox } from './printful-sandbox';

/** Printful (connection, catalogue) and the built-in sandbox printer (its routes and tick job). */
export type PrintfulDeps = Pick<CoreDeps, 'config' | 'jobs'> & {
  printful: PrintfulService;
  printfulSandbox: PrintfulSandbox;
};
