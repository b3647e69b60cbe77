import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * One run, several projects: server unit and API tests on embedded PGlite, the same API tests on a PostgreSQL
 * server when TEST_DATABASE_URL is set, and the web app's component tests in jsdom. Playwright specs (e2e/) are
 * not Vitest's.
 */
const pgUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's 2 cores. The API tests spend much of
    // their time waiting (jobs, decoder processes, the database), so two files at a time use both cores.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(pgUrl
        ? [
            {
              test: {
                name: 'server-postgres',
                root: './apps/server',
                include: ['src/**/*.api.test.ts', 'test/**/*.api.test.ts'],
                environment: 'node',
                env: { TEST_DB: 'postgres' },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      './apps/web/vitest.config.ts',
    ],
  },
});
