import { zQueryInt } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import { parseInput } from '../../lib/validate';
import { getDashboardStats, listRecentUploads } from './dashboard.service';

const ZRecentQuery = z.object({ limit: zQueryInt(1, 50).default(3) });

export async function dashboardRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get('/api/dashboard/stats', async (request) =>
    getDashboardStats(deps.db, request.workspaceId, {
      now: deps.now(),
      aiMonthlyCredits: deps.config.aiMonthlyCredits,
    }),
  );

  app.get('/api/dashboard/recent-uploads', async (request) => {
    const { limit } = parseInput(ZRecentQuery, request.query, 'query');
    return listRecentUploads(deps.db, request.workspaceId, limit);
  });
}
