import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The one database type the code uses: the same queries run on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction of `Db` (what `db.transaction` hands its callback). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A repository function's first argument: the database, or the transaction it runs in. */
export type DbOrTx = Db | Tx;
