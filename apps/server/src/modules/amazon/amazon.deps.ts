import type { CoreDeps } from '../../lib/core-deps';
import type { AmazonService } from './amazon.service';

export type AmazonDeps = Pick<CoreDeps, 'config'> & { amazon: AmazonService };
