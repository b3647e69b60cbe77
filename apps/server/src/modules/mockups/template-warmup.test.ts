import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { findTemplate, TemplateStore } from './mockup-render';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-templates-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const cachedFiles = () =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();

describe('TemplateStore.warmUp', () => {
  it('makes the previews that are not cached yet, one at a time, and stops when asked', async () => {
    const store = new TemplateStore(dir);
    let checks = 0;
    // Allow exactly one drawing, then ask it to stop.
    expect(await store.warmUp(() => checks++ >= 1)).toBe(1);
    const first = cachedFiles();
    // The 800 px preview the browser is sent, scaled from the shipped file (renders decode the shipped file itself).
    expect(first).toEqual([expect.stringMatching(/\.preview\.png$/)]);

    // A second run skips what is cached and draws the next one.
    checks = 0;
    expect(await new TemplateStore(dir).warmUp(() => checks++ >= 2)).toBe(1);
    expect(cachedFiles()).toHaveLength(2);
    expect(cachedFiles()).toEqual(expect.arrayContaining(first));
  }, 60_000);

  it('prefetch decodes a template in every colour in the background, one at a time', async () => {
    const store = new TemplateStore(dir);
    const template = findTemplate('mug', 'mug-right');
    if (!template) throw new Error('no mug template');
    const colors = TEMPLATE_SETS.mug.colors.map((c) => c.id);
    expect(colors.some((c) => store.has('mug', 'mug-right', c))).toBe(false);
    store.prefetch('mug');
    // Started at once, and every colour is decoded in the end (the render then takes the same pixels).
    expect(store.has('mug', 'mug-right', colors[0] as string)).toBe(true);
    for (let i = 0; i < 200 && !colors.every((c) => store.has('mug', 'mug-right', c)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(colors.filter((c) => !store.has('mug', 'mug-right', c))).toEqual([]);
    const first = await store.raw('mug', template, colors[0] as string);
    expect(await store.raw('mug', template, colors[0] as string)).toBe(first);
  }, 60_000);
  it("prefetch with a batch's views decodes those, in order, and no more than the LRU holds", async () => {
    const store = new TemplateStore(dir, 2);
    const colors = TEMPLATE_SETS.tshirt.colors.map((c) => c.id);
    const views = [
      { templateId: 'tshirt-back', colorId: colors[1] as string },
      { templateId: 'tshirt-front', colorId: colors[2] as string },
      { templateId: 'tshirt-front', colorId: colors[3] as string },
    ];
    store.prefetch('tshirt', views);
    expect(store.has('tshirt', 'tshirt-back', colors[1] as string)).toBe(true);
    for (let i = 0; i < 200 && !store.has('tshirt', 'tshirt-front', colors[2] as string); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const back = findTemplate('tshirt', 'tshirt-back');
    const front = findTemplate('tshirt', 'tshirt-front');
    if (!back || !front) throw new Error('no t-shirt templates');
    await store.raw('tshirt', front, colors[2] as string);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The first two views, and not the third (the LRU holds two): the default view was not fetched either.
    expect(store.has('tshirt', 'tshirt-back', colors[1] as string)).toBe(true);
    expect(store.has('tshirt', 'tshirt-front', colors[3] as string)).toBe(false);
    expect(store.has('tshirt', 'tshirt-front', colors[0] as string)).toBe(false);
  }, 60_000);
});
