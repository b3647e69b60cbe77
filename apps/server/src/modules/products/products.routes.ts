import fsp from 'node:fs/promises';
import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  DESIGN_MAX_BYTES,
  ErrorCode,
  type TProduct,
  ZCreateProduct,
  ZDeleteProductQuery,
  ZProductIdParams,
  ZProductListQuery,
  ZPublishBody,
  ZRemoveFromStoreBody,
  ZStoreUploadBody,
  ZStoreUploadParams,
  ZUpdateInStoreBody,
  ZUpdateProduct,
} from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, badRequest, notFound, payloadTooLarge } from '../../lib/errors';
import { sendJsonOnce } from '../../lib/read-cache';
import { parseInput } from '../../lib/validate';
import { designWork } from '../designs/design-work';
import { cleanFileName, createDesignFromFile, deleteDesign, receiveToTempFile } from '../designs/designs.service';
import { ensurePrintFile } from '../print-files/print-files.service';
import type { ProductsDeps } from './products.deps';
import { findProduct } from './products.repository';
import {
  deleteProduct,
  duplicateProduct,
  getProduct,
  insertProduct,
  isStorePlatform,
  listProducts,
  prepareCreate,
  publishProduct,
  pushProduct,
  pushStates,
  removeFromStore,
  updateInStore,
  updateProduct,
} from './products.service';

const FIELD_MAX_BYTES = 64 * 1024;
/** Text fields that arrive as JSON text in multipart. */
const JSON_FIELDS = new Set(['tags', 'variants']);
/** Fields a form may send empty when the seller left them out. */
const OMIT_WHEN_EMPTY = new Set(['designId', 'mockupId', 'mockupUrl', 'price', 'tags', 'variants', 'status']);

type UploadedFile = { name: string; tempPath: string; bytes: number };

/** Multipart text fields as the JSON body would carry them: numbers for price, arrays for tags and variants. */
function fieldsToInput(fields: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value.trim() === '' && OMIT_WHEN_EMPTY.has(key)) continue;
    if (key === 'price') {
      input[key] = Number(value);
    } else if (JSON_FIELDS.has(key)) {
      try {
        input[key] = JSON.parse(value);
      } catch {
        throw new AppError(400, ErrorCode.ValidationFailed, `Invalid body: ${key}: must be a JSON array as text`);
      }
    } else {
      input[key] = value;
    }
  }
  return input;
}

/**
 * Reads a multipart create: text fields, and the design file (field `file`) streamed to a temporary file. A file
 * over DESIGN_MAX_BYTES answers 413 naming it and leaves nothing behind.
 */
async function readMultipart(request: FastifyRequest, deps: ProductsDeps) {
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!part.filename) {
          // A form's file input left empty still sends a part, with no name and no bytes.
          part.file.resume();
          continue;
        }
        if (part.fieldname !== 'file' || file) {
          part.file.resume();
          throw badRequest('file: send one design file, in a multipart field named "file"');
        }
        const name = cleanFileName(part.filename);
        const received = await receiveToTempFile(deps, name, (part as MultipartFile).file, DESIGN_MAX_BYTES);
        file = { name, ...received };
      } else {
        if (part.valueTruncated) throw payloadTooLarge(`${part.fieldname}: is longer than ${FIELD_MAX_BYTES} bytes`);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (file) await fsp.rm(file.tempPath, { force: true });
    throw error;
  }
  return { fields, file };
}

/** A create with its design given by id, or as a file that becomes a design only once everything else checks out. */
async function createProduct(
  deps: ProductsDeps,
  request: FastifyRequest,
  input: z.output<typeof ZCreateProduct>,
  file: UploadedFile | null,
): Promise<TProduct> {
  if (file && input.designId) throw badRequest('designId: send either a design file or a designId, not both');
  const ws = request.workspaceId;
  if (!file) {
    if (!input.designId) throw badRequest('file: a design is required (a file in the field "file", or a designId)');
    const prepared = await prepareCreate(deps, ws, input, input.designId);
    return insertProduct(deps, ws, input, prepared, input.designId);
  }
  const prepared = await prepareCreate(deps, ws, input, null);
  const work = designWork(request);
  const design = await createDesignFromFile(deps, ws, file, work);
  try {
    // Abandoned while the design was made: no product, and the design goes too.
    work.signal?.throwIfAborted();
    return await insertProduct(deps, ws, input, prepared, design.id);
  } catch (error) {
    // The design came with this request: without its product it would be an orphan.
    await deleteDesign(deps, ws, design.id).catch((cleanupError: unknown) =>
      request.log.error({ err: cleanupError, designId: design.id }, 'could not remove the new design'),
    );
    throw error;
  }
}

const ZPlacementParams = ZProductIdParams.extend({ placement: z.string().regex(/^[a-z0-9_-]{1,40}$/) });

export async function productsRoutes(app: FastifyInstance, { deps }: { deps: ProductsDeps }) {
  // Plugins are encapsulated: this scope has its own multipart limits (one design file of at most DESIGN_MAX_BYTES).
  await app.register(multipart, {
    limits: { fileSize: DESIGN_MAX_BYTES, files: 2, fields: 20, fieldSize: FIELD_MAX_BYTES },
  });

  app.post('/api/products', async (request, reply) => {
    let file: UploadedFile | null = null;
    let product: TProduct;
    try {
      let raw: unknown = request.body;
      if (request.isMultipart()) {
        const received = await readMultipart(request, deps);
        file = received.file;
        raw = fieldsToInput(received.fields);
      }
      product = await createProduct(deps, request, parseInput(ZCreateProduct, raw, 'body'), file);
    } finally {
      // Before the answer goes out: a caller that sees the answer sees no temporary file.
      if (file) await fsp.rm(file.tempPath, { force: true });
    }
    return reply.status(201).send(product);
  });

  app.get('/api/products', async (request, reply) => {
    const query = parseInput(ZProductListQuery, request.query, 'query');
    return sendJsonOnce(reply, await listProducts(deps, request.workspaceId, query));
  });

  // A product's print file for one placement, drawn now if missing (print-files draws it).
  app.get('/api/products/:id/print-files/:placement', async (request, reply) => {
    const { id, placement } = parseInput(ZPlacementParams, request.params, 'params');
    const row = await findProduct(deps.db, request.workspaceId, id);
    const { png, spec } = await ensurePrintFile(deps, row, placement);
    return reply
      .header('Content-Type', 'image/png')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `attachment; filename="print-${placement}-${spec.width}x${spec.height}.png"`)
      .send(png);
  });

  app.get('/api/products/:id', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    return getProduct(deps, request.workspaceId, id, deps.config.appUrl ?? `${request.protocol}://${request.host}`);
  });

  app.patch('/api/products/:id', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const input = parseInput(ZUpdateProduct, request.body, 'body');
    return updateProduct(deps, request.workspaceId, id, input);
  });

  app.delete('/api/products/:id', async (request, reply) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const { store } = parseInput(ZDeleteProductQuery, request.query, 'query');
    // 202: the store removals are still at work (jobs); the last one deletes the product.
    const done = await deleteProduct(deps, request.workspaceId, id, store);
    return done === 'deleted' ? reply.status(204).send() : reply.status(202).send({ state: 'running' });
  });

  app.post('/api/products/:id/duplicate', async (request, reply) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    return reply.status(201).send(await duplicateProduct(deps, request.workspaceId, id));
  });

  app.post('/api/products/:id/publish', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const { integrationIds } = parseInput(ZPublishBody, request.body, 'body');
    return publishProduct(deps, request.workspaceId, id, integrationIds);
  });

  // A push still at work when the answer goes out answers 202 with its state; the browser polls the pushes.
  app.post('/api/upload/:platform/:productId', async (request, reply) => {
    const { platform, productId } = parseInput(ZStoreUploadParams, request.params, 'params');
    if (!isStorePlatform(platform)) throw notFound(`Store platform '${platform}'`);
    const { integrationId } = parseInput(ZStoreUploadBody, request.body, 'body');
    const result = await pushProduct(deps, request.workspaceId, platform, productId, integrationId);
    return reply.status(result.success ? 200 : 202).send(result);
  });

  app.post('/api/products/:id/update-in-store', async (request, reply) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const { integrationId } = parseInput(ZUpdateInStoreBody, request.body, 'body');
    const result = await updateInStore(deps, request.workspaceId, id, integrationId);
    return reply.status(result.success ? 200 : 202).send(result);
  });

  // 204: the listing is gone from that store; 202: the removal (a job) is still at work.
  app.post('/api/products/:id/remove-from-store', async (request, reply) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    const { integrationId, removal } = parseInput(ZRemoveFromStoreBody, request.body, 'body');
    const done = await removeFromStore(deps, request.workspaceId, id, integrationId, removal);
    return done === 'removed' ? reply.status(204).send() : reply.status(202).send({ state: 'running' });
  });

  app.get('/api/products/:id/pushes', async (request) => {
    const { id } = parseInput(ZProductIdParams, request.params, 'params');
    return pushStates(deps, request.workspaceId, id);
  });
}
