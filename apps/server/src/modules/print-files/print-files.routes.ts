import { ErrorCode, ZCreatePrintFile } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import type { PrintFilesDeps } from './print-files.deps';
import { findSignedProduct } from './print-files.repository';
import { createPrintFile, ensurePrintFile, printFilePath } from './print-files.service';

const ZSignedParams = z.object({ productId: z.uuid(), file: z.string().regex(/^[a-z0-9_-]{1,40}\.png$/) });

// The seller's download of a product's print file (`/api/products/:id/print-files/:placement`) is a products route.
export async function printFilesRoutes(app: FastifyInstance, { deps }: { deps: PrintFilesDeps }) {
  // A fulfilment provider downloads here with no cookie: the signature (path and expiry) is the authorisation.
  app.get('/api/print-files/:productId/:file', async (request, reply) => {
    const { productId, file } = parseInput(ZSignedParams, request.params, 'params');
    const placement = file.slice(0, -'.png'.length);
    const query = request.query as Record<string, unknown>;
    const verdict = deps.urlSigner.verify(printFilePath(productId, placement), query.expires, query.signature);
    if (verdict !== 'ok') {
      throw new AppError(
        403,
        ErrorCode.Forbidden,
        verdict === 'expired' ? 'This print file link has expired' : 'This print file link is not valid',
      );
    }
    const row = await findSignedProduct(deps.db, productId);
    const { png } = await ensurePrintFile(deps, row, placement);
    return reply
      .header('Content-Type', 'image/png')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, max-age=300')
      .send(png);
  });

  // The editor's download: a design's print file at the product type's default print area.
  app.post('/api/mockups/print-file', async (request, reply) => {
    const input = parseInput(ZCreatePrintFile, request.body, 'body');
    const out = await createPrintFile(deps, request.workspaceId, input);
    return reply
      .type('image/png')
      .header('Content-Disposition', `attachment; filename="print-${out.productType}-${out.width}x${out.height}.png"`)
      .header('X-Print-Width', String(out.width))
      .header('X-Print-Height', String(out.height))
      .send(out.png);
  });
}
