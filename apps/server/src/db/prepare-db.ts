// `npm run build -w @podforge/server` runs this after bundling: it makes the migrated PGlite cluster a new data
// folder starts from (src/db/pglite-snapshot.ts), so the first start after a build does not wait for it.
import { migratedSnapshot } from './pglite-snapshot';

const snapshot = await migratedSnapshot();
console.log(snapshot ? `PGlite cluster for new data folders: ${snapshot.dir}` : 'Could not prepare the PGlite cluster');
