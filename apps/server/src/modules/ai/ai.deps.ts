import type { AiProvider } from '../../integrations/ai/provider';
import type { DesignsDeps } from '../designs/designs.deps';
import type { PrintfulService } from '../printful/printful.service';

/** What the AI module uses: the provider, the catalogue for listing facts, and designs for what it draws. */
export type AiDeps = DesignsDeps & { ai: AiProvider; printful: PrintfulService };
