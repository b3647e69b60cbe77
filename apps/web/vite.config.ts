import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  server: {
    // `npm run dev`: the API runs on 3000, Vite serves the app with hot reload and forwards API calls.
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/templates': 'http://localhost:3000', '/auth': 'http://localhost:3000' },
  },
  build: { outDir: 'dist', emptyOutDir: true },
});
