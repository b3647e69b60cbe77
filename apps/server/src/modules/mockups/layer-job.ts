import type { Placement } from '@podforge/contract';
import { defineDecodeKind } from '../../decode/decode-kind';
import { renderDesignRaw } from './mockup-render';

/**
 * A stored design with no working copy (stored before they existed) placed for a mockup from its print PNG, of any
 * size: resized and rotated in the decode pool, unfaded; the raw RGBA layer comes back. The default reservation
 * (a layer is at most a 2000x2500 mockup's).
 */
export type LayerJob = { name: string; inputPath: string; placement: Placement };
export type LayerResult = { data: Uint8Array; width: number; height: number; left: number; top: number };

export const MOCKUP_LAYER = defineDecodeKind<LayerJob, LayerResult>({ name: 'layer' });

/** Runs in the decode worker (registered in src/decode/decode-worker.ts). */
export async function placeLayerInWorker(job: LayerJob): Promise<LayerResult> {
  // Unfaded: the mockup's blend applies the opacity (clipLayer gives the layer the placement's).
  const layer = await renderDesignRaw(job.inputPath, job.placement, { fade: false });
  return { ...layer, data: new Uint8Array(layer.data.buffer, layer.data.byteOffset, layer.data.byteLength) };
}
