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

/** Each screen's module by the tab it shows (app/routes/dashboard-shell.tsx). */
const SCREENS: Record<string, string> = {
  dashboard: 'src/features/dashboard/components/dashboard-screen.tsx',
  'create-product': 'src/features/create-product/components/create-product-screen.tsx',
  upload: 'src/features/upload/components/upload-screen.tsx',
  products: 'src/features/product-picker/components/product-picker-screen.tsx',
  'ai-generator': 'src/features/ai-generator/components/ai-generator-screen.tsx',
  'my-products': 'src/features/my-products/components/my-products-screen.tsx',
  orders: 'src/features/orders/components/orders-screen.tsx',
  integrations: 'src/features/integrations/components/integrations-screen.tsx',
};

/**
 * The screen a page opens on starts downloading with the first chunk, not after it has run: a small inline script in
 * index.html reads the address as app/tabs.ts does ('/', '/?tab=', '/create-product', '/integrations') and adds a
 * modulepreload for that screen's chunks (those the first chunk does not already bring).
 */
function preloadScreen(): Plugin {
  return {
    name: 'podforge-preload-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle || !ctx.chunk) return html;
        const files = (fileName: string, seen = new Set<string>()) => {
          const chunk = bundle[fileName];
          if (seen.has(fileName) || chunk?.type !== 'chunk') return seen;
          seen.add(fileName);
          for (const imported of chunk.imports) files(imported, seen);
          return seen;
        };
        const first = files(ctx.chunk.fileName);
        const byModule = new Map<string, string>();
        for (const chunk of Object.values(bundle)) {
          if (chunk.type === 'chunk' && chunk.facadeModuleId) byModule.set(chunk.facadeModuleId, chunk.fileName);
        }
        const screens: Record<string, string[]> = {};
        for (const [tab, source] of Object.entries(SCREENS)) {
          const fileName = byModule.get(path.resolve(import.meta.dirname, source));
          if (!fileName) throw new Error(`preloadScreen: no chunk for ${source}`);
          screens[tab] = [...files(fileName)].filter((f) => !first.has(f));
        }
        const script = `(function(){var s=${JSON.stringify(screens)},p=location.pathname,t=p==='/'?new URLSearchParams(location.search).get('tab')||'dashboard':p==='/create-product'?'create-product':p==='/integrations'?'integrations':null;if(t==='create')t='create-product';(s[t]||[]).forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';l.href='/'+f;document.head.appendChild(l)})})()`;
        return [{ tag: 'script', children: script, injectTo: 'head-prepend' }];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), preloadScreen(), precompress()],
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
