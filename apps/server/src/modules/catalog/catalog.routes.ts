import path from 'node:path';
import { ZShopifyCatalogProductsQuery } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  BUNDLED_CATEGORIES,
  categoryType,
  findSeed,
  hasRangeImage,
  isPhotoType,
  PRODUCT_RANGE_FILE,
  productImageFile,
} from '../../integrations/printful/catalog/bundled';
import { renderProductSvg } from '../../integrations/printful/catalog/product-image';
import { PRODUCT_SEEDS } from '../../integrations/printful/catalog/products';
import { notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import type { CatalogDeps } from './catalog.deps';
import { listCatalogCategories, listCatalogTemplates } from './catalog.service';
import { CatalogImageStore, photoSpec, photoSvg, RANGE_MAX_COLOURS } from './catalog-images';

const ZProductImageParams = z.object({
  id: z.coerce.number().int().min(1),
  file: z.string().regex(/^[a-z0-9-]+\.(svg|png)$/),
});
const ZCategoryImageParams = z.object({ file: z.string().regex(/^\d+\.svg$/) });

const sendSvg = (reply: import('fastify').FastifyReply, svg: string) =>
  reply
    .header('Content-Type', 'image/svg+xml; charset=utf-8')
    .header('Cache-Control', 'public, max-age=86400')
    // SVG opened directly must not run anything.
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(svg);

export async function catalogRoutes(app: FastifyInstance, { deps }: { deps: CatalogDeps }) {
  app.get('/api/catalog/shopify/categories', async (request) =>
    listCatalogCategories(await deps.printful.catalogFor(request.workspaceId), undefined),
  );

  app.get('/api/catalog/shopify/products', async (request) => {
    const { categoryId } = parseInput(ZShopifyCatalogProductsQuery, request.query, 'query');
    return listCatalogTemplates(await deps.printful.catalogFor(request.workspaceId), categoryId);
  });

  const images = new CatalogImageStore(path.join(deps.config.dataDir, 'catalog-images'));

  // Bundled catalogue pictures: t-shirts, hoodies, mugs and posters as PNG renders of the mockup templates (cached
  // on disk), the other kinds drawn as SVG on request. Browsers keep both for a day.
  app.get('/templates/catalog/products/:id/:file', async (request, reply) => {
    const { id, file } = parseInput(ZProductImageParams, request.params, 'params');
    const seed = findSeed(id);
    if (seed && file === PRODUCT_RANGE_FILE && hasRangeImage(seed)) {
      const specs = seed.colours
        .slice(0, RANGE_MAX_COLOURS)
        .map(([, hex]) => photoSpec(seed, hex))
        .filter((spec): spec is NonNullable<typeof spec> => spec !== null);
      const png = await images.rangePng(seed.id, specs);
      return reply.header('Content-Type', 'image/png').header('Cache-Control', 'public, max-age=86400').send(png);
    }
    const colour = seed?.colours.find(([name]) => productImageFile(seed.type, name) === file);
    if (!seed || !colour) throw notFound('Image');
    const spec = photoSpec(seed, colour[1]);
    if (!spec)
      return sendSvg(reply, renderProductSvg(seed.type, colour[1], `${seed.name}, ${colour[0]}`, seed.bodyHex));
    const png = await images.png(spec);
    return reply.header('Content-Type', 'image/png').header('Cache-Control', 'public, max-age=86400').send(png);
  });

  app.get('/templates/catalog/categories/:file', async (request, reply) => {
    const { file } = parseInput(ZCategoryImageParams, request.params, 'params');
    const id = Number(file.replace('.svg', ''));
    const category = BUNDLED_CATEGORIES.find((c) => c.id === id);
    const type = categoryType(id);
    if (!category || !type) throw notFound('Image');
    // The photo kinds show the same white template drawing as their products, as SVG.
    const seed = isPhotoType(type) ? PRODUCT_SEEDS.find((p) => p.type === type) : undefined;
    const spec = seed ? photoSpec(seed, '#ffffff') : null;
    return sendSvg(reply, spec ? photoSvg(spec, category.name) : renderProductSvg(type, '#ffffff', category.name));
  });
}
