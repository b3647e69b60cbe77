import type { AiProvider } from '../../integrations/ai/provider';
import type { CoreDeps } from '../../lib/core-deps';
import type { DesignsDeps } from '../designs/designs.deps';
import type { PrintfulService } from '../printful/printful.service';
import type { AiModelStatus } from './ai-model-status';

/** What the AI module uses: the provider, the catalogue for listing facts, and designs for what it draws. */
export type AiDeps = DesignsDeps &
  Pick<CoreDeps, 'afterStart'> & { ai: AiProvider; aiStatus: AiModelStatus; printful: PrintfulService };
