import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';

// A seller's placement (POST /api/mockups) is answered once its preview is stored; its full-size file is drawn right
// after in the decode pool (modules/mockups/mockup-files.ts). Whatever reads that file first waits for it, or draws it
// when no drawing is under way (it failed, or the process stopped first).

const RED = { r: 230, g: 20, b: 30 };
const ADJ = { scale: 100, rotation: 20, x: 0, y: 0, opacity: 100 };

async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all(
    [a, b].map((img) => sharp(img).removeAlpha().resize(256, 320, { fit: 'fill' }).raw().toBuffer()),
  );
  let sum = 0;
  for (let i = 0; i < (x as Buffer).length; i++) sum += Math.abs(((x as Buffer)[i] ?? 0) - ((y as Buffer)[i] ?? 0));
  return sum / (x as Buffer).length / 255;
}

describe('a mockup full-size file drawn after the answer', () => {
  let t: TestApp;
  let client: TestClient;
  let workspaceId: string;
  let designId: string;
  const place = (adjustments = ADJ) =>
    client.post('/api/mockups', { designId, productType: 'tshirt', templateId: 'tshirt-front', adjustments });
  const fileKey = (id: string) => `${workspaceId}/mockups/${id}/mockup.png`;
  const stored = async (id: string) => t.deps.storage.read(fileKey(id));

  beforeAll(async () => {
    t = await createTestApp();
    client = t.client();
    workspaceId = await client.workspaceId(t.deps.db);
    designId = (await insertDesign(t.deps, workspaceId, await solidPng(500, 600, RED))).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers with the preview stored; the full-size file follows without being asked for, and matches it', async () => {
    const res = await place();
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ width: 2000, height: 2500, url: `/api/mockups/${body.id}/file` });
    const preview = await client.get(body.previewUrl);
    expect(preview.statusCode).toBe(200);
    expect((await sharp(preview.rawPayload).metadata()).width).toBe(512);
    await vi.waitFor(async () => expect(await stored(body.id)).not.toBeNull(), { timeout: 15_000, interval: 50 });
    const full = (await stored(body.id)) as Buffer;
    expect(await sharp(full).metadata()).toMatchObject({ format: 'png', width: 2000, height: 2500 });
    // The preview, drawn small, is the full picture scaled down.
    expect(await meanDifference(full, preview.rawPayload)).toBeLessThan(0.02);
  }, 30_000);

  it('a read straight after the answer waits for the drawing and gets the picture once', async () => {
    const runs = vi.spyOn(t.deps.decodePool, 'run');
    try {
      const body = (await place({ ...ADJ, rotation: 33 })).json();
      const [a, b] = await Promise.all([client.get(body.url), client.get(body.url)]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
      expect(await sharp(a.rawPayload).metadata()).toMatchObject({ width: 2000, height: 2500 });
      // Drawn once, not once per reader.
      expect(runs.mock.calls.filter(([kind]) => kind.name === 'mockup-file')).toHaveLength(1);
    } finally {
      runs.mockRestore();
    }
  }, 30_000);

  it('a file never drawn (the process stopped first) is drawn when first read', async () => {
    const body = (await place({ ...ADJ, rotation: 45 })).json();
    await vi.waitFor(async () => expect(await stored(body.id)).not.toBeNull(), { timeout: 15_000, interval: 50 });
    const first = (await stored(body.id)) as Buffer;
    await t.deps.storage.delete(fileKey(body.id));
    const res = await client.get(body.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(first)).toBe(true);
    expect(await stored(body.id)).not.toBeNull();
  }, 30_000);

  it('a design deleted while its mockup is drawn leaves no file behind', async () => {
    const other = (await insertDesign(t.deps, workspaceId, await solidPng(300, 300, RED), 'gone.png')).id;
    const body = (
      await client.post('/api/mockups', {
        designId: other,
        productType: 'tshirt',
        templateId: 'tshirt-front',
        adjustments: ADJ,
      })
    ).json();
    expect((await client.delete(`/api/designs/${other}`)).statusCode).toBe(204);
    // Whatever the drawing was doing when the design went, nothing of the mockup stays stored.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.deps.storage.list(`${workspaceId}/mockups/${body.id}/`)).toEqual([]);
    expect((await client.get(body.url)).statusCode).toBe(404);
  }, 30_000);

  it("a newer placement withdraws the one before's drawing if it has not started; that one is drawn when read", async () => {
    // One slot held: background drawings wait (they leave a slot free for work someone waits for).
    const release = await t.deps.decodePool.lease({ label: 'held' });
    let a: { id: string; url: string };
    let b: { id: string; url: string };
    try {
      a = (await place({ ...ADJ, rotation: 5 })).json();
      const queued = () => t.deps.decodePool.position(`mockup-file:${a.id}`);
      await vi.waitFor(() => expect(queued()).toMatchObject({ state: 'waiting' }), { timeout: 5000, interval: 20 });
      b = (await place({ ...ADJ, rotation: 6 })).json();
      expect(queued()).toBeNull();
    } finally {
      release();
    }
    await vi.waitFor(async () => expect(await stored(b.id)).not.toBeNull(), { timeout: 15_000, interval: 50 });
    expect(await stored(a.id)).toBeNull();
    const res = await client.get(a.url);
    expect(res.statusCode).toBe(200);
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 2000, height: 2500 });
    expect(await stored(a.id)).not.toBeNull();
  }, 30_000);

  it("another workspace's mockup file answers 404", async () => {
    const body = (await place()).json();
    const stranger = t.client();
    expect((await stranger.get(body.url)).statusCode).toBe(404);
  }, 30_000);
});
