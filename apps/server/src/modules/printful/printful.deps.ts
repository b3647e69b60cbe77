import type { CoreDeps } from '../../lib/core-deps';
import type { PrintfulService } from './printful.service';

export type PrintfulDeps = Pick<CoreDeps, 'config'> & { printful: PrintfulService };
