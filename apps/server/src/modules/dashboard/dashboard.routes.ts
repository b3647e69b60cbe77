import { type TDashboardStats, type TRecentUpload, zQueryInt } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ReadCache, sendJsonOnce } from '../../lib/read-cache';
import { parseInput } from '../../lib/validate';
import type { DashboardDeps } from './dashboard.deps';
import { getDashboardStats, listRecentUploads } from './dashboard.service';

const ZRecentQuery = z.object({ limit: zQueryInt(1, 50).default(3) });

/** Figures over time windows (this week, this month) are computed again at least this often. */
const STATS_FRESH_MS = 5_000;

export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: DashboardDeps }) {
  // Answers are kept until the workspace's data next changes (see lib/read-cache.ts); the figures also until
  // STATS_FRESH_MS has passed, as their week and month move with the clock.
  const cache = new ReadCache<TDashboardStats | TRecentUpload[]>(1000);
  const cached = async (workspaceId: string, key: string, read: () => Promise<TDashboardStats | TRecentUpload[]>) => {
    const version = await deps.database.readVersionOf(workspaceId);
    return cache.read(`${workspaceId} ${key}`, version, read);
  };

  app.get('/api/dashboard/stats', async (request, reply) => {
    const now = deps.now();
    const stats = await cached(request.workspaceId, `stats ${Math.floor(now.getTime() / STATS_FRESH_MS)}`, () =>
      getDashboardStats(deps.db, request.workspaceId, {
        now,
        aiMonthlyCredits: deps.config.aiMonthlyCredits,
        storageQuotaBytes: deps.config.storageQuotaBytes,
      }),
    );
    return sendJsonOnce(reply, stats);
  });

  app.get('/api/dashboard/recent-uploads', async (request, reply) => {
    const { limit } = parseInput(ZRecentQuery, request.query, 'query');
    const recent = await cached(request.workspaceId, `recent ${limit}`, () =>
      listRecentUploads(deps.db, request.workspaceId, limit),
    );
    return sendJsonOnce(reply, recent);
  });
}
