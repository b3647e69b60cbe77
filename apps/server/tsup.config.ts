import { defineConfig } from 'tsup';

export default defineConfig({
  // Own entries: decode-pool.ts forks dist/decode-worker.js; the build runs dist/prepare-db.js (the PGlite snapshot).
  entry: {
    main: 'src/main.ts',
    'decode-worker': 'src/decode/decode-worker.ts',
    'prepare-db': 'src/db/prepare-db.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // The contract package ships TypeScript source, so it is bundled; everything else stays in node_modules.
  noExternal: [/^@podforge\//],
});
