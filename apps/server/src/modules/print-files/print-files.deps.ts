import type { CoreDeps } from '../../lib/core-deps';
import type { MockupsDeps } from '../mockups/mockups.deps';

/** What the print-files module uses: mockups' drawing, and signed URLs for the printer to fetch. */
export type PrintFilesDeps = MockupsDeps & Pick<CoreDeps, 'urlSigner'>;
