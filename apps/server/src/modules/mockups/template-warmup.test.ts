import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateStore } from './mockup-render';

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
});
