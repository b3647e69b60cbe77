import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client';

describe('PGlite readVersion', () => {
  let database: Database;
  const version = () => database.readVersion?.() ?? Number.NaN;

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: null });
    await database.migrate();
  });
  afterAll(async () => {
    await database.close();
  });

  it('stays while only reads run, and moves on every write, locking read and transaction', async () => {
    const client = database.pglite;
    if (!client) throw new Error('expected PGlite');
    const v0 = version();
    await client.query('SELECT count(*) FROM products');
    await client.query('  select 1');
    expect(version()).toBe(v0);
    await client.query("INSERT INTO workspaces (token_hash) VALUES ('read-version')");
    const v1 = version();
    expect(v1).toBeGreaterThan(v0);
    await client.query('SELECT id FROM workspaces FOR UPDATE');
    const v2 = version();
    expect(v2).toBeGreaterThan(v1);
    await client.transaction(async (tx) => {
      await tx.query('SELECT 1');
    });
    expect(version()).toBeGreaterThan(v2);
  });

  it('is null on PostgreSQL, where other processes write too', async () => {
    const pg = await openDatabase({ url: 'postgres://nobody@127.0.0.1:1/none' });
    expect(pg.readVersion).toBeNull();
    await pg.close();
  });
});
