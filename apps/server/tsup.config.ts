import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  sourcemap: true,
  // The contract package ships TypeScript source, so it is bundled; everything else stays in node_modules.
  noExternal: [/^@podforge\//],
});
