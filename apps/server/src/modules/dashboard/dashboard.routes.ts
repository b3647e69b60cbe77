import { type TDashboardStats, type TRecentUpload, zQueryInt } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { ReadCache } from '../../lib/read-cache';
import { parseInput } from '../../lib/validate';
import { getDashboardStats, listRecentUploads } from './dashboard.service';

const ZRecentQuery = z.object({ limit: zQueryInt(1, 50).default(3) });

/** Figures over time windows (this week, this month) are computed again at least this often. */
const STATS_FRESH_MS = 5_000;

export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // On PGlite, answers are kept until the database next changes (see lib/read-cache.ts); the figures also until
  // STATS_FRESH_MS has passed, as their week and month move with the clock.
  const readVersion = deps.database.readVersion;
  const cache = new ReadCache<TDashboardStats | TRecentUpload[]>(1000);
  const cached = async <T extends TDashboardStats | TRecentUpload[]>(key: string, read: () => Promise<T>) => {
    const version = readVersion?.() ?? null;
    if (version === null) return read();
    const hit = cache.get(key, version);
    if (hit) return hit as T;
    const value = await read();
    cache.set(key, version, value);
    return value;
  };

  app.get('/api/dashboard/stats', async (request) => {
    const now = deps.now();
    return cached(`stats ${request.workspaceId} ${Math.floor(now.getTime() / STATS_FRESH_MS)}`, () =>
      getDashboardStats(deps.db, request.workspaceId, { now, aiMonthlyCredits: deps.config.aiMonthlyCredits }),
    );
  });

  app.get('/api/dashboard/recent-uploads', async (request) => {
    const { limit } = parseInput(ZRecentQuery, request.query, 'query');
    return cached(`recent ${request.workspaceId} ${limit}`, () =>
      listRecentUploads(deps.db, request.workspaceId, limit),
    );
  });
}
