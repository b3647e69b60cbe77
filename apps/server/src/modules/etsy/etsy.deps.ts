import type { CoreDeps } from '../../lib/core-deps';
import type { EtsyService } from './etsy.service';

export type EtsyDeps = Pick<CoreDeps, 'config'> & { etsy: EtsyService };
