import { ZCreateSchedule, ZProductIdParams, ZScheduleIdParams } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { SchedulesDeps } from './schedules.deps';
import { cancelSchedule, createSchedule, listProductSchedules, listUpcomingSchedules } from './schedules.service';

export async function schedulesRoutes(app: FastifyInstance, { deps }: { deps: SchedulesDeps }) {
  app.post('/api/schedule-upload', async (request, reply) => {
    const input = parseInput(ZCreateSchedule, request.body, 'body');
    return reply.status(201).send(await createSchedule(deps, request.workspaceId, input));
  });

  app.delete('/api/schedule-upload/:id', async (request) => {
    const { id } = parseInput(ZScheduleIdParams, request.params, 'params');
    return cancelSchedule(deps, request.workspaceId, id);
  });

  app.get('/api/schedules', async (request) => listUpcomingSchedules(deps, request.workspaceId));

  app.get('/api/products/:id/schedules', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    return listProductSchedules(deps, request.workspaceId, id);
  });
}
