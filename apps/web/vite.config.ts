import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text file of the build, which the server sends to
 * browsers that accept them (`preCompressed` in apps/server/src/app.ts): compressed once at build, at the highest
 * level, instead of on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'podforge-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const body = fs.readFileSync(file);
        if (body.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: {
    // `npm run dev`: the API runs on 3000, Vite serves the app with hot reload and forwards API calls.
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/templates': 'http://localhost:3000', '/auth': 'http://localhost:3000' },
  },
  // No modulepreload polyfill in the first chunk: every browser the build targets but Safari 16 preloads natively,
  // and a browser that does not only loads the chunks when they are imported.
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false } },
});
