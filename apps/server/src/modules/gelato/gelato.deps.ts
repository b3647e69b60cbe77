import type { CoreDeps } from '../../lib/core-deps';
import type { GelatoService } from './gelato.service';
import type { GelatoSandbox } from './gelato-sandbox';

/** Gelato (connection, catalogue) and the built-in Gelato sandbox (its routes and tick job). */
export type GelatoDeps = Pick<CoreDeps, 'config' | 'jobs'> & { gelato: GelatoService; gelatoSandbox: GelatoSandbox };
