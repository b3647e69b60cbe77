import { ZBlankQuoteQuery, ZProductIdParams, ZQuotesQuery, ZRoutingRule } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { RoutingDeps } from './routing.deps';
import { blankQuote, getRule, productQuotes, setRule } from './routing.service';

export async function routingRoutes(app: FastifyInstance, { deps }: { deps: RoutingDeps }) {
  app.get('/api/products/:id/quotes', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const query = parseInput(ZQuotesQuery, request.query, 'query');
    return productQuotes(deps, request.workspaceId, id, query);
  });

  app.get('/api/quotes/blank', async (request) => {
    const query = parseInput(ZBlankQuoteQuery, request.query, 'query');
    return blankQuote(deps, request.workspaceId, query);
  });

  app.get('/api/routing', async (request) => getRule(deps, request.workspaceId));

  app.put('/api/routing', async (request) => {
    const rule = parseInput(ZRoutingRule, request.body, 'body');
    return setRule(deps, request.workspaceId, rule);
  });
}
