import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { alias: { '@': new URL('./src', import.meta.url).pathname } },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    // findBy* waits up to 5 s (setup.ts); a test with several such waits needs room on a loaded CI machine.
    testTimeout: 20_000,
  },
});
