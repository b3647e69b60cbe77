import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The modules that work through the ports (`StorePlatform`, `FulfilmentProvider`) name no store platform and no
 * printer, in code or in comments: what differs per system lives in its adapter (`modules/<system>/`,
 * `integrations/<system>/`) and the registry picks it. The modules' README files are documentation, not code, and
 * are not scanned. Each exception is listed below with why it must stay.
 */

const MODULES = path.resolve(__dirname, '../src/modules');
const NEUTRAL = ['orders', 'products', 'stores', 'printers', 'bulk', 'schedules'];
const NAMES = /shopify|etsy|woocommerce|amazon|printful|printify|gelato/gi;

/** `file` (under src/modules) may name a system on a line containing `text`, for the reason given. */
const ALLOWED: { file: string; text: string; why: string }[] = [
  {
    file: 'orders/orders.routes.ts',
    text: "scope.post('/api/webhooks/printful/:id'",
    why: 'migration alias of the one printer webhook route: configurations set up before it still send there',
  },
];

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function namings(): { file: string; line: number; text: string }[] {
  return NEUTRAL.flatMap((module) =>
    tsFiles(path.join(MODULES, module)).flatMap((full) => {
      const file = path.relative(MODULES, full).split(path.sep).join('/');
      return fs
        .readFileSync(full, 'utf8')
        .split('\n')
        .flatMap((text, i) => (text.match(NAMES) ? [{ file, line: i + 1, text: text.trim() }] : []));
    }),
  );
}

describe('modules behind the ports', () => {
  const found = namings();
  const allowed = (n: { file: string; text: string }) =>
    ALLOWED.some((a) => a.file === n.file && n.text.includes(a.text));

  it('name no store platform and no printer outside the listed exceptions', () => {
    expect(found.filter((n) => !allowed(n)).map((n) => `${n.file}:${n.line}: ${n.text}`)).toEqual([]);
  });

  it('list no exception that is no longer needed', () => {
    const stale = ALLOWED.filter((a) => !found.some((n) => n.file === a.file && n.text.includes(a.text)));
    expect(stale).toEqual([]);
  });
});
