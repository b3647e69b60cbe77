import type { CoreDeps } from '../../lib/core-deps';
import type { MockupsDeps } from '../mockups/mockups.deps';
import type { PrintersDeps } from '../printers/printers.deps';

/**
 * What the print-files module uses: mockups' drawing, signed URLs for the printer to fetch, and the printers (a
 * product's print files follow its printer's placement sizes).
 */
export type PrintFilesDeps = MockupsDeps & PrintersDeps & Pick<CoreDeps, 'urlSigner'>;
