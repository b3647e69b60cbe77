import type { CoreDeps } from '../../lib/core-deps';
import type { PrintersDeps } from '../printers/printers.deps';

/** Quotes across printers and the workspace's routing rule: the database and the printers' registry. */
export type RoutingDeps = Pick<CoreDeps, 'db'> & PrintersDeps;
