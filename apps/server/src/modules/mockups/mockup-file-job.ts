import type { Placement, TMockupProductType } from '@podforge/contract';
import { defineDecodeKind } from '../../decode/decode-kind';
import {
  clipLayer,
  composeFull,
  type DesignPixels,
  decodeDesignPixels,
  decodeTemplateRaw,
  type RawImage,
  renderDesignRaw,
} from './mockup-render';

/**
 * A mockup's full-size file (the 2000x2500 PNG) drawn in the decode pool: the design file (its working copy, else its
 * print PNG) placed on the template's full pixels and encoded. A placement answered with its preview
 * (`createMockup`'s `full: 'later'`) has it drawn here in the background, at the decoders' lower priority; anything
 * that reads the file before then waits for it (mockup-files.ts).
 */
export type MockupFileJob = {
  /** The design file to read, and its storage key (what a decoder's kept pixels are known by: a key never changes). */
  designPath: string;
  designKey: string;
  productType: TMockupProductType;
  templateId: string;
  colorId: string;
  placement: Placement;
};
export type MockupFileResult = { png: Uint8Array };

/** The design's pixels, the template's and the PNG at once: about 16 + 15 + 15 + 2 MB, with room. */
export const MOCKUP_FILE = defineDecodeKind<MockupFileJob, MockupFileResult>({
  name: 'mockup-file',
  reserveMb: () => 160,
});

/**
 * What a decoder keeps between such jobs: the last design's pixels (a seller's placements follow each other) and the
 * last two templates (one colour after another). Dropped with the decoder (the pool replaces one that passed a limit).
 */
const kept: { design: { key: string; pixels: DesignPixels } | null; templates: Map<string, RawImage> } = {
  design: null,
  templates: new Map(),
};

/** Runs in the decode worker (registered in src/decode/decode-worker.ts). */
export async function drawMockupFileInWorker(job: MockupFileJob): Promise<MockupFileResult> {
  const design = kept.design?.key === job.designKey ? kept.design.pixels : await decodeDesignPixels(job.designPath);
  kept.design = { key: job.designKey, pixels: design };
  const templateKey = `${job.productType}/${job.templateId}/${job.colorId}`;
  let template = kept.templates.get(templateKey);
  if (!template) {
    template = await decodeTemplateRaw(job.productType, job.templateId, job.colorId);
    kept.templates.set(templateKey, template);
    while (kept.templates.size > 2) kept.templates.delete(kept.templates.keys().next().value as string);
  }
  const layer = clipLayer(await renderDesignRaw(design, job.placement, { fade: false }), job.placement);
  const png = await composeFull(template, layer);
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength) };
}
