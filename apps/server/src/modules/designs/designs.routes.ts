import fsp from 'node:fs/promises';
import multipart from '@fastify/multipart';
import {
  DESIGN_MAX_BYTES,
  type TDesign,
  type TUploadFilesItem,
  type TUploadQueueStatus,
  ZDesignFileParams,
  ZDesignIdParams,
  ZDesignListQuery,
  ZUploadIdParams,
} from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { ClientGoneError } from '../../plugins/client-abort';
import { designWork, uploadTicket } from './design-work';
import type { DesignsDeps } from './designs.deps';
import {
  cleanFileName,
  createDesignFromFile,
  deleteDesign,
  getDesignRow,
  listDesigns,
  openDesignFile,
  receiveToTempFile,
  toDesign,
} from './designs.service';

const MAX_FILES_PER_REQUEST = 20;
/**
 * Parts of at most DESIGN_MAX_BYTES each; a larger file is cut rather than failing the whole request, so receiveToTempFile
 * refuses that one file (413) and the others are kept. `throwFileSizeLimit` is honoured per call but not in the types.
 */
const DESIGN_PARTS = { limits: { fileSize: DESIGN_MAX_BYTES }, throwFileSizeLimit: false } as {
  limits: { fileSize: number };
};

/** RFC 6266 filename parameters: an ASCII fallback and the UTF-8 name. */
function contentDisposition(kind: 'inline' | 'attachment', name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Steps as a Server-Timing header (`receive;dur=12.3, decode;dur=450.1`): the bench and browser tools read it. */
function serverTiming(timings: Record<string, number>): string {
  return Object.entries(timings)
    .map(([step, ms]) => `${step};dur=${ms.toFixed(1)}`)
    .join(', ');
}

export async function designsRoutes(app: FastifyInstance, { deps }: { deps: DesignsDeps }) {
  await app.register(multipart, {
    limits: { fileSize: DESIGN_MAX_BYTES, files: MAX_FILES_PER_REQUEST, fields: 20, fieldSize: 64 * 1024 },
  });

  app.post('/api/designs/upload', async (request, reply) => {
    if (!request.isMultipart()) throw badRequest('Send the design as multipart/form-data with a field "file"');
    const part = await request.file();
    if (part?.fieldname !== 'file') throw badRequest('Send the design in a multipart field named "file"');
    const name = cleanFileName(part.filename);
    const started = performance.now();
    const { tempPath, bytes } = await receiveToTempFile(deps, name, part.file);
    const timings: Record<string, number> = { receive: performance.now() - started };
    let design: TDesign;
    try {
      design = await createDesignFromFile(
        deps,
        request.workspaceId,
        { name, tempPath, bytes },
        { ...designWork(request), timings },
      );
    } finally {
      // Before the answer goes out: a caller that sees the answer sees no temporary file.
      await fsp.rm(tempPath, { force: true });
    }
    return reply.status(201).header('Server-Timing', serverTiming(timings)).send(design);
  });

  app.post('/api/upload/files', async (request) => {
    if (!request.isMultipart()) throw badRequest('Send the files as multipart/form-data in fields named "files"');
    const results: TUploadFilesItem[] = [];
    const work = designWork(request);
    try {
      // The wizard's design step uploads here, under the one design file limit.
      for await (const part of request.parts(DESIGN_PARTS)) {
        if (part.type !== 'file') continue;
        const name = cleanFileName(part.filename);
        if (part.fieldname !== 'files') {
          part.file.resume();
          results.push({ name, error: 'Send files in multipart fields named "files"', status: 400 });
          continue;
        }
        let tempPath: string | null = null;
        try {
          const received = await receiveToTempFile(deps, name, part.file, DESIGN_MAX_BYTES);
          tempPath = received.tempPath;
          results.push(await createDesignFromFile(deps, request.workspaceId, { name, ...received }, work));
        } catch (error) {
          if (!(error instanceof AppError) || error instanceof ClientGoneError) throw error;
          results.push({ name, error: error.message, status: error.statusCode });
        } finally {
          if (tempPath) await fsp.rm(tempPath, { force: true });
        }
      }
    } catch (error) {
      // Abandoned (or broken) part-way: the designs this request made are nobody's answer, so they go too.
      await Promise.allSettled(
        results.flatMap((r) => ('id' in r ? [deleteDesign(deps, request.workspaceId, r.id)] : [])),
      );
      throw error;
    }
    if (results.length === 0) throw badRequest('Send at least one file in a multipart field named "files"');
    return { files: results };
  });

  app.get('/api/designs/queue/:uploadId', async (request): Promise<TUploadQueueStatus> => {
    const { uploadId } = parseInput(ZUploadIdParams, request.params, 'params');
    const status = deps.decodePool.position(uploadTicket(request.workspaceId, uploadId));
    return status
      ? { uploadId, ...status, position: status.state === 'waiting' ? status.position : null }
      : { uploadId, state: 'unknown', position: null, waiting: deps.decodePool.load.waiting };
  });

  app.get('/api/designs', async (request) => {
    const { limit } = parseInput(ZDesignListQuery, request.query, 'query');
    return listDesigns(deps, request.workspaceId, limit);
  });

  app.get('/api/designs/:id', async (request) => {
    const { id } = parseInput(ZDesignIdParams, request.params, 'params');
    return toDesign(await getDesignRow(deps, request.workspaceId, id));
  });

  app.delete('/api/designs/:id', async (request, reply) => {
    const { id } = parseInput(ZDesignIdParams, request.params, 'params');
    await deleteDesign(deps, request.workspaceId, id);
    return reply.status(204).send();
  });

  app.get('/api/designs/:id/file/:kind', async (request, reply) => {
    const { id, kind } = parseInput(ZDesignFileParams, request.params, 'params');
    const file = await openDesignFile(deps, request.workspaceId, id, kind);
    // Originals of SVG and PDF can carry active content: the browser must download them, never render them here.
    const download = kind === 'original' && (file.type === 'svg' || file.type === 'pdf');
    return reply
      .header('Content-Type', file.contentType)
      .header('Content-Length', String(file.bytes))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('Cache-Control', 'private, max-age=3600')
      .header('Content-Disposition', contentDisposition(download ? 'attachment' : 'inline', file.fileName))
      .send(file.body);
  });
}
