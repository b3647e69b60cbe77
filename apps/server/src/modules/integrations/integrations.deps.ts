import type { CoreDeps } from '../../lib/core-deps';

export type IntegrationsDeps = Pick<CoreDeps, 'db'>;
