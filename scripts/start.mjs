// `npm start`: builds the web app and the server only when a build is missing or older than its sources (the
// README's first command still sets up a fresh machine), then runs the server in this process's place.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stale } from './build-freshness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...p) => path.join(root, ...p);

const contract = [at('packages/contract/src'), at('packages/contract/package.json')];
const targets = [
  {
    name: '@podforge/web',
    built: at('apps/web/dist/index.html'),
    sources: [
      at('apps/web/src'),
      at('apps/web/index.html'),
      at('apps/web/public'),
      at('apps/web/vite.config.ts'),
      ...contract,
    ],
  },
  {
    name: '@podforge/server',
    built: at('apps/server/dist/main.js'),
    sources: [at('apps/server/src'), at('apps/server/tsup.config.ts'), ...contract],
  },
];

for (const target of targets) {
  if (!stale(target.built, target.sources)) continue;
  console.log(`Building ${target.name} (missing or older than its sources)`);
  const run = spawnSync('npm', ['run', 'build', '-w', target.name], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

// `--build-only` (the start-up benchmark): bring the builds up to date without starting.
if (!process.argv.includes('--build-only')) await import(at('apps/server/dist/main.js'));
