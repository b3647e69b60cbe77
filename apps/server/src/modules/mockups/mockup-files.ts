import type { MockupAdjustments } from '@podforge/contract';
import { mockupProductType } from '@podforge/contract';
import { PoolClosedError } from '../../decode/decode-pool';
import { notFound } from '../../lib/errors';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { getDesignRow, withStoredDesignFile } from '../designs/designs.service';
import { MOCKUP_FILE } from './mockup-file-job';
import { mockupPlacement } from './mockup-render';
import type { MockupsDeps } from './mockups.deps';
import * as repo from './mockups.repository';

/**
 * A mockup's full-size file. A placement answered with its preview (`createMockup` with `full: 'later'`) has its
 * 2000x2500 PNG drawn right after, in the decode pool behind every job a request waits for; whatever reads the file
 * first (the download, a store push, a store fetching the picture) waits for that drawing, or, when no instance is
 * drawing it (it failed, or the process stopped first), draws it then. The file is a function of the mockup's row
 * (design, template, colour, placement), so drawing it twice on two instances stores the same picture.
 */

type Deps = Pick<MockupsDeps, 'db' | 'storage' | 'config' | 'decodePool'>;
type Logger = { error(obj: object, msg: string): void };

/** A drawing under way in this process: `awaited` once someone reads the file (it is then never withdrawn). */
type Drawing = { file: Promise<Buffer | null>; withdraw: AbortController; awaited: boolean };

/** Drawings under way in this process, by mockup id. */
const drawing = new Map<string, Drawing>();
/** The newest background drawing of each design on each view, so a newer placement withdraws the one before. */
const newestOfView = new Map<string, string>();

/** Why a background drawing left the queue before it started: a newer placement of its design on its view came. */
class Superseded extends Error {
  override name = 'Superseded';
}

const drawingTicket = (mockupId: string) => `mockup-file:${mockupId}`;

/** Draws a mockup's full-size file and stores it; null when the mockup (or its design) was deleted meanwhile. */
async function draw(deps: Deps, row: repo.MockupRow, background: boolean, signal: AbortSignal): Promise<Buffer | null> {
  const design = await getDesignRow(deps, row.workspaceId, row.designId).catch(() => null);
  if (!design) return null;
  const productType = mockupProductType(row.productType);
  const placement = mockupPlacement(productType, design, row.adjustments as MockupAdjustments);
  const designKey = design.workingKey ?? design.printKey;
  const colorId = row.color ?? TEMPLATE_SETS[productType].colors[0]?.id ?? 'white';
  const { png } = await withStoredDesignFile(deps, designKey, (designPath) =>
    deps.decodePool.run(
      MOCKUP_FILE,
      { designPath, designKey, productType, templateId: row.templateId, colorId, placement },
      // A stored, checked design: the print file's limit (a turned poster's drawing waits behind uploads).
      { label: design.name, background, ticket: drawingTicket(row.id), timeLimitMs: 60_000, signal },
    ),
  );
  const file = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  await deps.storage.put(row.storageKey, file, 'image/png');
  // Deleted while it was drawn (with its design): its files went with the rows, so this one must not stay.
  const still = await repo.findMockupById(deps.db, row.id).catch(() => undefined);
  if (!still) {
    await deps.storage.delete(row.storageKey);
    return null;
  }
  return file;
}

function drawOnce(deps: Deps, row: repo.MockupRow, background: boolean): Promise<Buffer | null> {
  const running = drawing.get(row.id);
  if (running) {
    if (!background) {
      // Someone waits for it now: never withdrawn, and no longer behind the other background drawings.
      running.awaited = true;
      deps.decodePool.promote(drawingTicket(row.id));
    }
    return running.file;
  }
  const withdraw = new AbortController();
  const entry: Drawing = { file: Promise.resolve(null), withdraw, awaited: !background };
  entry.file = draw(deps, row, background, withdraw.signal).finally(() => {
    if (drawing.get(row.id) === entry) drawing.delete(row.id);
  });
  drawing.set(row.id, entry);
  return entry.file;
}

/**
 * Has the full-size file drawn in the background; a failure is logged (a later read draws it again). A seller
 * trying placements one after another makes a mockup each: the drawing of the one before, if it has not started and
 * nobody reads it yet, leaves the queue (it is drawn if ever read).
 */
export function drawMockupFileLater(deps: Deps, row: repo.MockupRow, log: Logger): void {
  const view = [row.workspaceId, row.designId, row.productType, row.templateId, row.color].join('/');
  const before = newestOfView.get(view);
  const earlier = before ? drawing.get(before) : undefined;
  if (
    before &&
    earlier &&
    !earlier.awaited &&
    deps.decodePool.position(drawingTicket(before))?.state !== 'processing'
  ) {
    drawing.delete(before);
    earlier.withdraw.abort(new Superseded('a newer placement of the design came'));
  }
  newestOfView.set(view, row.id);
  drawOnce(deps, row, true)
    .catch((error: unknown) => {
      // Withdrawn, or still waiting when the server closed: the first read draws it.
      if (error instanceof Superseded || error instanceof PoolClosedError) return;
      log.error({ err: error, mockupId: row.id }, 'drawing a mockup file failed');
    })
    .finally(() => {
      if (newestOfView.get(view) === row.id) newestOfView.delete(view);
    });
}

/** The full-size file of a mockup row (the caller scoped it), drawn first when it is not stored yet. */
export async function mockupFileOf(deps: Deps, row: repo.MockupRow): Promise<Buffer> {
  const stored = await deps.storage.read(row.storageKey);
  if (stored) return stored;
  const file = await drawOnce(deps, row, false);
  if (!file) throw notFound('Mockup file');
  return file;
}

/** The full-size file by mockup id alone, for a request a signed URL authorises; null when there is no mockup. */
export async function mockupFileById(deps: Deps, id: string): Promise<Buffer | null> {
  const row = await repo.findMockupById(deps.db, id);
  return row ? mockupFileOf(deps, row) : null;
}

/** Resolves once no drawing is under way in this process (tests that compare what storage holds wait for it). */
export async function mockupDrawingsSettled(): Promise<void> {
  while (drawing.size > 0) await Promise.allSettled([...drawing.values()].map((d) => d.file));
}
