import rateLimit from '@fastify/rate-limit';
import { ErrorCode, ZGenerateContentFromDesign, ZGenerateContentFromKeywords } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { type GenerateContentInput, generateContent } from './ai.service';

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
  const limit = { rateLimit: { max: deps.config.aiRateLimitPerMinute, timeWindow: 60_000 } };

  app.post('/api/ai/generate-content', { config: limit }, async (request) =>
    generateContent(deps, request.workspaceId, parseGenerateContent(request.body)),
  );
}
