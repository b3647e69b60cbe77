import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * SQL lives in repositories (ARCHITECTURE.md 'Rules of the layout'): under `src/modules/`, only a `*.repository.ts`
 * builds a query. A service, route or job calls its repository's functions; it may open a transaction
 * (`db.transaction`) and hand the `tx` to them, but never queries through it itself.
 */

const MODULES = path.resolve(__dirname, '../src/modules');

/**
 * Module files that build queries and may, each with why. Empty: every module's SQL is in its repositories. Outside
 * `src/modules/` the check does not look: the database's own code (`db/`: schema, migrations, the PGlite snapshot,
 * the one-off backfill), `storage/` and `lib/` helpers that are themselves one table's store (`lib/oauth-states.ts`,
 * `lib/webhook-events.repository.ts`, `storage/stored-files.repository.ts`) and the fakes under `integrations/`,
 * whose state is a stand-in service's, not ours. Keep it short; an entry needs a reason that is not "later".
 */
const ALLOWED: Record<string, string> = {};

/** A query built on a database or transaction handle, a raw SQL template, or the relational query API. */
const QUERY =
  /\b(?:db|tx|trx)\s*\.\s*(?:select|selectDistinct|insert|update|delete|execute)\s*\(|\bsql(?:\.raw)?\s*[`(]|\b(?:db|tx)\s*\.\s*query\s*\.\s*\w+\s*\.\s*find/g;

function moduleFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(full);
    const source = entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts');
    return source ? [full] : [];
  });
}

/** The lines where a query starts, comments out (a comment that mentions `db.select()` builds nothing). */
function queriesIn(file: string): string[] {
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/^[ \t]*\/\/.*$/gm, '');
  return [...text.matchAll(QUERY)].map((m) => `${text.slice(0, m.index).split('\n').length}`);
}

describe('the query pattern', () => {
  const count = (source: string) => [...source.matchAll(QUERY)].length;

  it('finds queries however they are written', () => {
    expect(count('await deps.db\n      .select()\n      .from(products)')).toBe(1);
    expect(count('const [row] = await tx.insert(designs).values(rows)')).toBe(1);
    expect(count('await this.deps.db.update(integrations).set({})')).toBe(1);
    expect(count('db.delete(x); db.execute(y)')).toBe(2);
    expect(count('sql`select 1`; sql.raw("x")')).toBe(2);
    expect(count('deps.db.query.products.findFirst({})')).toBe(1);
  });

  it('leaves alone what is no query: storage, routes, transactions, hashes', () => {
    expect(count('await deps.storage.delete(key); app.delete("/api/x", h)')).toBe(0);
    expect(count('await deps.db.transaction(async (tx) => repo.insert(tx, rows))')).toBe(0);
    expect(count('createHash("sha256").update(raw)')).toBe(0);
  });
});

describe('SQL lives in repositories', () => {
  const found = new Map(
    moduleFiles(MODULES)
      .filter((file) => !file.endsWith('.repository.ts'))
      .map((file) => [path.relative(MODULES, file).split(path.sep).join('/'), queriesIn(file)] as const)
      .filter(([, queries]) => queries.length > 0),
  );

  it('no module file outside a *.repository.ts builds a query (besides the allowlist)', () => {
    const offenders = [...found]
      .filter(([file]) => !(file in ALLOWED))
      .map(([file, lines]) => `${file} (${lines.length}): lines ${lines.join(', ')}`);
    expect(offenders, `queries outside repositories:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('the allowlist names only files that still build queries', () => {
    const stale = Object.keys(ALLOWED).filter((file) => !found.has(file));
    expect(stale, 'listed but with no query left: take them off the list').toEqual([]);
  });
});
