import rateLimit from '@fastify/rate-limit';
import {
  ErrorCode,
  ZAiDesignRequest,
  ZAiGenerationsQuery,
  ZGenerateContentFromDesign,
  ZGenerateContentFromKeywords,
  ZGenerateDescriptionRequest,
  ZGenerateTagsRequest,
  ZGenerateTitleRequest,
} from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import {
  type GenerateContentInput,
  generateContent,
  generateDescription,
  generateTags,
  generateTitle,
  listGenerations,
} from './ai.service';
import { generateDesigns } from './ai-designs.service';

/** The full page sends `keywords`; the simple create flow sends `filename`. */
function parseGenerateContent(body: unknown): GenerateContentInput {
  if (typeof body === 'object' && body !== null && 'keywords' in body) {
    return { kind: 'keywords', ...parseInput(ZGenerateContentFromKeywords, body, 'body') };
  }
  return { kind: 'design', ...parseInput(ZGenerateContentFromDesign, body, 'body') };
}

export async function aiRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Registered here, so it limits only the AI routes; counted per workspace, in this instance's memory.
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => request.workspaceId,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many AI requests: at most ${context.max} a minute per workspace. Try again in ${context.after}.`,
      ),
  });
  // One counter for all AI calls of a workspace (groupId), not one per route.
  const limit = { rateLimit: { max: deps.config.aiRateLimitPerMinute, timeWindow: 60_000, groupId: 'ai' } };

  app.post('/api/ai/generate-content', { config: limit }, async (request) =>
    generateContent(deps, request.workspaceId, parseGenerateContent(request.body)),
  );

  app.post('/api/ai/designs', { config: limit }, async (request, reply) => {
    const input = parseInput(ZAiDesignRequest, request.body, 'body');
    return reply.status(201).send(await generateDesigns(deps, request.workspaceId, input));
  });

  app.post('/api/ai/generate-title', { config: limit }, async (request) =>
    generateTitle(deps, request.workspaceId, parseInput(ZGenerateTitleRequest, request.body, 'body')),
  );
  app.post('/api/ai/generate-description', { config: limit }, async (request) =>
    generateDescription(deps, request.workspaceId, parseInput(ZGenerateDescriptionRequest, request.body, 'body')),
  );
  app.post('/api/ai/generate-tags', { config: limit }, async (request) =>
    generateTags(deps, request.workspaceId, parseInput(ZGenerateTagsRequest, request.body, 'body')),
  );

  app.get('/api/ai/generations', async (request) => {
    const { limit: count } = parseInput(ZAiGenerationsQuery, request.query, 'query');
    return { generations: await listGenerations(deps, request.workspaceId, count) };
  });
}
