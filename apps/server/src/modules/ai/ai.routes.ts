import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import {
  ANALYZE_IMAGE_MAX_BYTES,
  ErrorCode,
  ZAiDesignRequest,
  ZAiGenerationsQuery,
  ZAnalyzeImageFields,
  ZGenerateContentFromDesign,
  ZGenerateContentFromKeywords,
  ZGenerateDescriptionRequest,
  ZGenerateTagsRequest,
  ZGenerateTitleRequest,
} from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { designWork } from '../designs/design-work';
import { cleanFileName, receiveToTempFile } from '../designs/designs.service';
import type { AiDeps } from './ai.deps';
import {
  type GenerateContentInput,
  generateContent,
  generateDescription,
  generateTags,
  generateTitle,
  listGenerations,
} from './ai.service';
import { generateDesigns } from './ai-designs.service';
import { analyzeImage, removeTemp } from './analyze-image.service';
import { OneCounterStore } from './one-counter-store';

/** The full page sends `keywords`; the simple create flow sends `filename`. */
function parseGenerateContent(body: unknown): GenerateContentInput {
  if (typeof body === 'object' && body !== null && 'keywords' in body) {
    return { kind: 'keywords', ...parseInput(ZGenerateContentFromKeywords, body, 'body') };
  }
  return { kind: 'design', ...parseInput(ZGenerateContentFromDesign, body, 'body') };
}

export async function aiRoutes(app: FastifyInstance, { deps }: { deps: AiDeps }) {
  // Registered here, so it limits only the AI routes; counted per workspace, in this instance's memory.
  await app.register(rateLimit, {
    global: false,
    // One budget for all AI routes of a workspace (the plugin's own store keeps one per route).
    store: OneCounterStore,
    keyGenerator: (request) => request.workspaceId,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many AI requests: at most ${context.max} a minute per workspace. Try again in ${context.after}.`,
      ),
  });
  const limit = { rateLimit: { max: deps.config.aiRateLimitPerMinute, timeWindow: 60_000 } };
  // And per client address, whatever workspace (cookie) it uses: dropping the cookie gives no new budget.
  const perAddress = new OneCounterStore();
  const addressMax = deps.config.aiRateLimitPerMinutePerAddress;
  app.addHook('onRequest', async (request) => {
    if (!(request.routeOptions.config as { rateLimit?: unknown } | undefined)?.rateLimit) return;
    const { current, ttl } = await new Promise<{ current: number; ttl: number }>((resolve) =>
      perAddress.incr(request.clientKey, (_error, result) => resolve(result), 60_000),
    );
    if (current > addressMax) {
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `Too many AI requests from this address: at most ${addressMax} a minute (AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS). Try again in ${Math.ceil(ttl / 1000)} seconds.`,
      );
    }
  });

  // The configured models' status: read once the server has settled after its start, then daily.
  deps.aiStatus.log = app.log;
  app.addHook('onListen', async () => deps.afterStart.run(() => deps.aiStatus.start()));
  app.addHook('onClose', async () => deps.aiStatus.stop());
  app.get('/api/ai/status', async () => deps.aiStatus.status());

  app.post('/api/ai/generate-content', { config: limit }, async (request) =>
    generateContent(deps, request.workspaceId, parseGenerateContent(request.body)),
  );

  // Analyze Image's picture: one file of the simple flow's size, received like an upload and never kept.
  await app.register(multipart, {
    limits: { fileSize: ANALYZE_IMAGE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
  });

  app.post('/api/ai/analyze-image', { config: limit }, async (request) => {
    if (!request.isMultipart()) {
      throw badRequest('Send the image as multipart/form-data in a field named "image"');
    }
    const fields: Record<string, string> = {};
    let file: { name: string; tempPath: string; bytes: number } | null = null;
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (part.fieldname !== 'image' || file) {
          part.file.resume();
          throw badRequest('Send one image in a multipart field named "image"');
        }
        const name = cleanFileName(part.filename);
        file = { name, ...(await receiveToTempFile(deps, name, part.file, ANALYZE_IMAGE_MAX_BYTES)) };
      }
      if (!file) throw badRequest('Send the image in a multipart field named "image"');
      const input = parseInput(ZAnalyzeImageFields, fields, 'body');
      return await analyzeImage(deps, request.workspaceId, input, file);
    } finally {
      if (file) await removeTemp(file.tempPath);
    }
  });

  app.post('/api/ai/designs', { config: limit }, async (request, reply) => {
    const input = parseInput(ZAiDesignRequest, request.body, 'body');
    return reply.status(201).send(await generateDesigns(deps, request.workspaceId, input, designWork(request)));
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
