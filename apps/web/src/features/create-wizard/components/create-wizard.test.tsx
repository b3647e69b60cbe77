import { DESIGN_AREAS, DESIGN_MAX_BYTES } from '@podforge/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { catalogTee, settings } from '@/test/catalog-fixtures';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { INITIAL_WIZARD, WIZARD_STATE_VERSION, WIZARD_STORAGE_KEY, type WizardState } from '../wizard-state';
import { stepFromPath } from '../wizard-steps';
import { CreateWizard } from './create-wizard';

const DESIGN_ID = '11111111-1111-4111-8111-111111111111';
const MOCKUP_ID = '33333333-3333-4333-8333-333333333333';
const PRODUCT_ID = '44444444-4444-4444-8444-444444444444';

const apparel = { id: 1, parentId: 0, name: 'Apparel', image: '' };
const tshirts = { id: 2, parentId: 1, name: 'T-Shirts', image: '' };
const template = {
  id: 71,
  name: 'Unisex Staple T-Shirt',
  description: 'A soft tee.',
  price: 12.5,
  imageUrl: '/t71.png',
};
const serverDesign = {
  id: DESIGN_ID,
  name: 'Sunset',
  type: 'png',
  size: 100,
  width: 1500,
  height: 1500,
  url: '/api/designs/d/file/print',
  thumbnailUrl: '/api/designs/d/file/thumbnail',
  originalUrl: '/api/designs/d/file/original',
  source: 'upload',
  createdAt: '2026-01-01T00:00:00Z',
};
const wizardDesign = {
  id: DESIGN_ID,
  src: serverDesign.thumbnailUrl,
  source: 'upload' as const,
  name: 'Sunset',
  url: serverDesign.url,
  width: 1500,
  height: 1500,
};
const mockup = {
  id: MOCKUP_ID,
  templateId: 'tshirt-front',
  color: 'white',
  url: `/api/mockups/${MOCKUP_ID}/file`,
  previewUrl: `/api/mockups/${MOCKUP_ID}/preview`,
  width: 2000,
  height: 2500,
};

function seed(patch: Partial<WizardState>) {
  localStorage.setItem(
    WIZARD_STORAGE_KEY,
    JSON.stringify({ version: WIZARD_STATE_VERSION, state: { ...INITIAL_WIZARD, ...patch } }),
  );
}
const saved = (): WizardState => JSON.parse(localStorage.getItem(WIZARD_STORAGE_KEY) ?? 'null')?.state;

const chosenProduct: Partial<WizardState> = {
  platform: 'shopify',
  selectedCategory: tshirts,
  selectedTemplate: template,
};

/** The AI status of a server without a key: no models, nothing to warn of. */
const OFFLINE_AI = {
  provider: 'offline',
  text: { model: null, shutdownDate: null, retired: false },
  image: { model: null, shutdownDate: null, retired: false },
  warnings: [],
  checkedAt: null,
};

function Wizard() {
  const { pathname, search } = useLocation();
  return (
    <>
      <CreateWizard step={stepFromPath(pathname)} />
      <div data-testid="location">{`${pathname}${search}`}</div>
      <Toaster />
    </>
  );
}

function setup(path: string, routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch({ 'GET /api/ai/status': () => json(OFFLINE_AI), ...routes });
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<Wizard />, { path });
  return fetch;
}

const location = () => screen.getByTestId('location');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('step indicator', () => {
  it('lets only the active and earlier steps be clicked', () => {
    seed({ ...chosenProduct, designFiles: [wizardDesign], mockups: [mockup], selectedMockupId: MOCKUP_ID });
    setup('/create/details', {
      'GET /api/designs': () => json([]),
      'GET /api/printful/products/71': () => json(catalogTee),
      'GET /api/settings': () => json(settings),
    });
    const steps = screen.getByRole('list', { name: 'Wizard steps' });
    for (const name of ['1. Product', '2. Design', '3. Mockups', '4. Details'])
      expect(within(steps).getByRole('link', { name })).toBeInTheDocument();
    expect(within(steps).queryByRole('link', { name: '5. Pricing' })).toBeNull();
    expect(within(steps).getByText('5. Pricing')).toHaveAttribute('aria-disabled', 'true');
    expect(within(steps).getByRole('link', { name: '4. Details' })).toHaveAttribute('aria-current', 'step');
    expect(screen.getByRole('heading', { level: 2, name: 'Details' })).toBeInTheDocument();
  });
});

describe('Product step', () => {
  const routes = {
    'GET /api/catalog/shopify/categories': () => json([apparel, tshirts]),
    '/api/printful/categories?parent_id=1': () => json([tshirts]),
    '/api/printful/categories?parent_id=2': () => json([]),
    '/api/catalog/shopify/products?categoryId=2': () => json([template]),
  };

  it('offers Shopify, Etsy, WooCommerce and Amazon, browses categories and chooses a template', async () => {
    setup('/create', routes);
    expect(screen.getByRole('button', { name: 'Etsy' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'WooCommerce' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Amazon' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Shopify' }));
    const breadcrumb = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(breadcrumb).getByText('Catalog')).toHaveAttribute('aria-current', 'page');

    fireEvent.click(await screen.findByRole('button', { name: 'Apparel' }));
    fireEvent.click(await screen.findByRole('button', { name: 'T-Shirts' }));
    // A category with subcategories has no Continue; a leaf category says so and lists its templates.
    expect(await screen.findByText('No subcategories found.')).toBeInTheDocument();
    expect(within(breadcrumb).getByRole('button', { name: 'Apparel' })).toBeInTheDocument();
    expect(within(breadcrumb).getByText('T-Shirts')).toHaveAttribute('aria-current', 'page');
    const card = await screen.findByRole('button', { name: 'Unisex Staple T-Shirt' });
    expect(card).toHaveTextContent('A soft tee.');
    expect(card).toHaveTextContent('$12.50');
    const next = screen.getByRole('button', { name: 'Continue to Design' });
    expect(next).toBeDisabled();
    fireEvent.click(card);
    expect(card).toHaveAttribute('aria-pressed', 'true');
    expect(saved()).toMatchObject({ platform: 'shopify', selectedCategory: tshirts, selectedTemplate: template });
    // The template is the catalogue product: its variants are chosen from its catalogue entry later.
    expect(saved().pricing).toEqual({ catalogProductId: null, variants: [] });
    fireEvent.click(next);
    expect(location()).toHaveTextContent('/create/design');
  });

  it('a Product Picker card (?product=&category=) opens the wizard with that product chosen', async () => {
    setup('/create?product=71&category=2', routes);
    await waitFor(() => expect(location()).toHaveTextContent(/^\/create$/));
    expect(saved()).toMatchObject({ platform: 'shopify', selectedCategory: tshirts, selectedTemplate: template });
    expect(await screen.findByRole('button', { name: 'Continue to Design' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Shopify' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('says so when the picked product is not in the catalogue, choosing nothing', async () => {
    setup('/create?product=999&category=2', routes);
    expect(await screen.findByRole('alert')).toHaveTextContent('The product you picked is not in the catalogue');
    expect(saved()?.selectedTemplate ?? null).toBeNull();
  });

  it('shows Continue to Design only on a category without subcategories; the breadcrumb goes back up', async () => {
    setup('/create', routes);
    fireEvent.click(screen.getByRole('button', { name: 'Shopify' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Apparel' }));
    await screen.findByRole('button', { name: 'T-Shirts' });
    expect(screen.queryByRole('button', { name: 'Continue to Design' })).toBeNull();
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('button', { name: 'Catalog' }),
    );
    expect(await screen.findByRole('button', { name: 'Apparel' })).toBeInTheDocument();
    expect(saved().selectedCategory).toBeNull();
  });

  it('choosing the platform again clears category and template', async () => {
    seed(chosenProduct);
    setup('/create', routes);
    expect(await screen.findByRole('button', { name: 'Unisex Staple T-Shirt' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Shopify' }));
    expect(saved()).toMatchObject({ platform: 'shopify', selectedCategory: null, selectedTemplate: null });
    expect(await screen.findByRole('button', { name: 'Apparel' })).toBeInTheDocument();
  });

  it("says 'Could not load categories.' and retries", async () => {
    let attempts = 0;
    setup('/create', {
      ...routes,
      'GET /api/catalog/shopify/categories': () => {
        attempts += 1;
        return attempts === 1 ? json({ error: 'down' }, 500) : json([apparel, tshirts]);
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Shopify' }));
    expect(await screen.findByText('Could not load categories.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'Apparel' })).toBeInTheDocument();
    expect(attempts).toBe(2);
  });
});

describe('Design step', () => {
  const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

  it('uploads files through /api/upload/files, shows each refused file, lists, picks and removes designs', async () => {
    seed(chosenProduct);
    const fetch = setup('/create/design', {
      'GET /api/designs': () => json([{ ...serverDesign, id: '55555555-5555-4555-8555-555555555555', name: 'Old' }]),
      'POST /api/upload/files': () =>
        json({ files: [serverDesign, { name: 'broken.png', error: 'File is not a valid PNG', status: 400 }] }),
    });
    const next = screen.getByRole('button', { name: 'Continue to Mockups' });
    expect(next).toBeDisabled();
    const big = png('huge.png');
    Object.defineProperty(big, 'size', { value: DESIGN_MAX_BYTES + 1 });
    fireEvent.change(screen.getByTestId('wizard-file-input'), {
      target: {
        files: [png('sunset.png'), png('broken.png'), big, new File(['x'], 'notes.txt', { type: 'text/plain' })],
      },
    });
    const selected = await screen.findByRole('list', { name: 'Selected designs' });
    expect(within(selected).getByText('Sunset')).toBeInTheDocument();
    const problems = screen.getByRole('list', { name: 'Upload problems' });
    expect(problems).toHaveTextContent('broken.png: File is not a valid PNG');
    expect(problems).toHaveTextContent('huge.png: File Too Large – Please upload a file smaller than 50 MB.');
    expect(problems).toHaveTextContent('notes.txt: Invalid File Type – Please upload a PNG, JPEG, SVG, or PDF file.');
    const upload = fetch.calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/upload/files');
    expect((upload as { body: FormData }).body.getAll('files').map((f) => (f as File).name)).toEqual([
      'sunset.png',
      'broken.png',
    ]);
    expect(next).toBeEnabled();

    fireEvent.click(await screen.findByRole('button', { name: 'Use Old' }));
    expect(within(selected).getByText('Old')).toBeInTheDocument();
    expect(saved().designFiles.map((d) => d.name)).toEqual(['Sunset', 'Old']);
    expect(saved().designFiles[0]).toMatchObject({ id: DESIGN_ID, source: 'upload', src: serverDesign.thumbnailUrl });

    fireEvent.click(screen.getByRole('button', { name: 'Remove Sunset' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Old' }));
    expect(next).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Product Type' }));
    expect(location()).toHaveTextContent(/^\/create$/);
  });

  it("asks for the chosen product's mockup templates while the design is picked (the server decodes them meanwhile)", async () => {
    seed({
      ...chosenProduct,
      selectedCategory: { id: 5, parentId: 4, name: 'Mugs', image: '' },
      selectedTemplate: { ...template, name: 'White Glossy Mug' },
    });
    const fetch = setup('/create/design', {
      'GET /api/designs': () => json([]),
      'GET /api/mockups/templates?productType=mug': () => json({ productType: 'mug', templates: [], colors: [] }),
    });
    await waitFor(() =>
      expect(fetch.calls.map((c) => `${c.url.pathname}${c.url.search}`)).toContain(
        '/api/mockups/templates?productType=mug',
      ),
    );
    expect(screen.getByRole('button', { name: 'Continue to Mockups' })).toBeDisabled();
  });

  it("shows 'Upload failed' when the upload call fails without a reason", async () => {
    seed(chosenProduct);
    setup('/create/design', {
      'GET /api/designs': () => json([]),
      'POST /api/upload/files': () => new Response('', { status: 500 }),
    });
    fireEvent.change(screen.getByTestId('wizard-file-input'), { target: { files: [png('sunset.png')] } });
    expect(await screen.findByText('sunset.png: Upload failed')).toBeInTheDocument();
  });

  it('sends the AI prompt to /api/ai/designs and shows the real error (no images are invented)', async () => {
    seed(chosenProduct);
    const fetch = setup('/create/design', {
      'GET /api/designs': () => json([]),
      'POST /api/ai/designs': () => json({ error: 'Route POST /api/ai/designs not found', code: 'NOT_FOUND' }, 404),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Design' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a prompt');
    expect(fetch.calls.some((c) => c.url.pathname === '/api/ai/designs')).toBe(false);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'retro sunset' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Design' }));
    expect(await screen.findByText('Route POST /api/ai/designs not found')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.url.pathname === '/api/ai/designs')?.body).toEqual({
      prompt: 'retro sunset',
      size: '1024x1024',
      n: 1,
      style: 'vector-clean',
    });
    expect(screen.queryByRole('list', { name: 'Selected designs' })).toBeNull();
  });
});

describe('Mockups step', () => {
  it("renders the wizard's first design on the template's product type and saves the picked mockup", async () => {
    seed({
      ...chosenProduct,
      selectedCategory: { id: 5, parentId: 4, name: 'Mugs', image: '' },
      selectedTemplate: { ...template, name: 'White Glossy Mug' },
      designFiles: [wizardDesign],
    });
    const fetch = setup('/create/mockups', {
      'GET /api/printful/products/71': () =>
        json({
          ...catalogTee,
          name: 'White Glossy Mug',
          variants: [{ id: 1320, color: 'White', colorHex: '#ffffff', size: '11 oz', baseCost: 5.95 }],
        }),
      'GET /api/settings': () => json(settings),
      '/api/mockups/templates?productType=mug': () =>
        json({
          productType: 'mug',
          templates: [
            {
              id: 'mug-right',
              name: 'Mug right',
              productType: 'mug',
              imageUrl: '/templates/mockups/mug/mug-right/white.png',
              previewUrl: '/templates/mockups/mug/mug-right/white.preview.png',
              width: 2000,
              height: 2500,
              designArea: DESIGN_AREAS.mug,
              colors: [{ id: 'white', name: 'White', hex: '#fff' }],
            },
          ],
        }),
      'POST /api/mockups/batch': () =>
        json({ jobId: 'j1', status: 'done', done: 1, total: 1, mockups: [mockup], error: null }),
    });
    const next = screen.getByRole('button', { name: 'Continue to Details' });
    expect(next).toBeDisabled();
    // The catalogue product's first colour is offered by default, at the target margin's price.
    expect(await screen.findByRole('button', { name: 'White / 11 oz' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() =>
      expect(saved().pricing).toEqual({ catalogProductId: 71, variants: [{ catalogVariantId: 1320, price: 9.99 }] }),
    );
    const generate = screen.getByRole('button', { name: 'Generate Mockups' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    await waitFor(() => expect(next).toBeEnabled());
    expect(fetch.calls.find((c) => c.url.pathname === '/api/mockups/batch')?.body).toMatchObject({
      designId: DESIGN_ID,
      productType: 'mug',
      templateIds: ['mug-right'],
      colors: ['white'],
    });
    expect(saved()).toMatchObject({
      mockups: [mockup],
      selectedMockupId: MOCKUP_ID,
      colorMockups: { White: MOCKUP_ID },
    });
    fireEvent.click(next);
    expect(location()).toHaveTextContent('/create/details');
  });

  it('renders one mockup per offered colour, in the template colour nearest each catalogue colour', async () => {
    seed({ ...chosenProduct, designFiles: [wizardDesign] });
    const black = { ...mockup, id: 'm-black', color: 'black' };
    const white = { ...mockup, id: 'm-white', color: 'white' };
    const fetch = setup('/create/mockups', {
      'GET /api/printful/products/71': () => json(catalogTee),
      'GET /api/settings': () => json(settings),
      '/api/mockups/templates?productType=tshirt': () =>
        json({
          productType: 'tshirt',
          templates: [
            {
              id: 'tshirt-front',
              name: 'T-shirt front',
              productType: 'tshirt',
              imageUrl: '/templates/mockups/tshirt/tshirt-front/white.png',
              previewUrl: '/templates/mockups/tshirt/tshirt-front/white.preview.png',
              width: 2000,
              height: 2500,
              designArea: DESIGN_AREAS.tshirt,
              colors: [
                { id: 'white', name: 'White', hex: '#ffffff' },
                { id: 'black', name: 'Black', hex: '#151515' },
                { id: 'navy', name: 'Navy', hex: '#1f2a44' },
              ],
            },
          ],
        }),
      'POST /api/mockups/batch': () =>
        json({ jobId: 'j1', status: 'done', done: 2, total: 2, mockups: [white, black], error: null }),
    });
    // Defaults: White in every size; the seller also offers Black.
    fireEvent.click(await screen.findByRole('button', { name: 'All Black' }));
    await waitFor(() =>
      expect(saved().pricing.variants.map((v) => v.catalogVariantId)).toEqual([4011, 4012, 4016, 4017, 4018]),
    );
    expect(screen.getByTestId('mockup-colours')).toHaveTextContent('White, Black');
    const generate = screen.getByRole('button', { name: 'Generate Mockups' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    await waitFor(() => expect(saved().colorMockups).toEqual({ White: 'm-white', Black: 'm-black' }));
    expect(fetch.calls.find((c) => c.url.pathname === '/api/mockups/batch')?.body).toMatchObject({
      templateIds: ['tshirt-front'],
      colors: ['white', 'black'],
    });
    expect(saved().selectedMockupId).toBe('m-white');
  });

  it('a typed address of a later step opens the first step that is not complete', async () => {
    seed(chosenProduct);
    setup('/create/mockups', { 'GET /api/designs': () => json([]) });
    await waitFor(() => expect(location()).toHaveTextContent('/create/design'));
    expect(screen.getByRole('heading', { level: 2, name: 'Design' })).toBeInTheDocument();
  });

  it('with nothing chosen, /create/pricing opens the Product step and asks the server nothing else', async () => {
    const fetch = setup('/create/pricing', {
      'GET /api/catalog/shopify/categories': () => json([apparel, tshirts]),
    });
    await waitFor(() => expect(location()).toHaveTextContent(/^\/create$/));
    expect(screen.getByRole('heading', { level: 2, name: 'Product' })).toBeInTheDocument();
    expect(fetch.calls.map((c) => c.url.pathname)).not.toContain('/api/integrations');
    expect(fetch.calls.map((c) => c.url.pathname).some((p) => p.startsWith('/api/printful/products'))).toBe(false);
  });
});

describe('Details step', () => {
  const content = {
    title: 'Retro Sunset Tee',
    description: 'A warm sunset.',
    tags: ['retro', 'sunset', 'retro '],
    price: 24.99,
    variants: [{ name: 'Size', options: ['S', 'M', 'XL'] }],
    provider: 'offline',
    creditsRemaining: 199,
  };

  it('generates the listing for the design, keeps tags clean, previews it and gates Continue', async () => {
    seed({
      ...chosenProduct,
      designFiles: [wizardDesign],
      mockups: [mockup],
      selectedMockupId: MOCKUP_ID,
      pricing: { catalogProductId: 71, variants: [{ catalogVariantId: 4011, price: 24.99 }] },
    });
    const fetch = setup('/create/details', {
      'POST /api/ai/generate-content': () => json(content),
      'GET /api/printful/products/71': () => json(catalogTee),
      'GET /api/settings': () => json(settings),
    });
    const next = screen.getByRole('button', { name: 'Continue to Pricing' });
    expect(next).toBeDisabled();
    // Generate waits for the catalogue product, whose colours and sizes the text may promise.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate AI Content' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Generate AI Content' }));
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue('Retro Sunset Tee'));
    // The listing is written for the chosen blank and only the colours and sizes the product is sold in.
    expect(fetch.calls.find((c) => c.url.pathname === '/api/ai/generate-content')?.body).toEqual({
      filename: 'Sunset',
      productType: 'tshirt',
      platform: 'shopify',
      designId: DESIGN_ID,
      catalogProductId: 71,
      colors: ['White'],
      sizes: ['S'],
    });
    expect(next).toBeEnabled();
    expect(saved().details).toEqual({
      title: 'Retro Sunset Tee',
      description: 'A warm sunset.',
      tags: ['retro', 'sunset'],
    });
    // The AI writes the listing only: the variants stay the catalogue product's.
    expect(saved().pricing.variants).toEqual([{ catalogVariantId: 4011, price: 24.99 }]);

    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: ' summer, , Beach,summer , beach' } });
    expect(saved().details.tags).toEqual(['summer', 'Beach']);
    const preview = screen.getByTestId('listing-preview');
    expect(within(preview).getByRole('img', { name: 'Product mockup' })).toHaveAttribute('src', mockup.previewUrl);
    expect(preview).toHaveTextContent('Retro Sunset Tee');
    expect(preview).toHaveTextContent('$24.99');
    expect(preview).toHaveTextContent('A warm sunset.');
    expect(within(within(preview).getByRole('list', { name: 'Preview tags' })).getAllByRole('listitem')).toHaveLength(
      2,
    );

    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x'.repeat(256) } });
    expect(screen.getByRole('list', { name: 'Marketplace rules' })).toHaveTextContent(
      'Shopify titles are at most 255 characters (this one has 256).',
    );
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: '  ' } });
    expect(next).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Back to Mockups' }));
    expect(location()).toHaveTextContent('/create/mockups');
  });

  it('shows the server reason when generation fails', async () => {
    seed({ ...chosenProduct, designFiles: [wizardDesign], mockups: [mockup], selectedMockupId: MOCKUP_ID });
    setup('/create/details', {
      'POST /api/ai/generate-content': () => json({ error: 'AI credits used up', code: 'QUOTA' }, 429),
      'GET /api/printful/products/71': () => json(catalogTee),
      'GET /api/settings': () => json(settings),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Generate AI Content' }));
    expect(await screen.findByText('Failed to generate content. AI credits used up')).toBeInTheDocument();
  });
});

describe('Pricing step', () => {
  const ready: Partial<WizardState> = {
    ...chosenProduct,
    designFiles: [wizardDesign],
    mockups: [mockup],
    selectedMockupId: MOCKUP_ID,
    colorMockups: { White: MOCKUP_ID },
    details: { title: 'Retro Sunset Tee', description: 'A warm sunset.', tags: ['retro'] },
    pricing: {
      catalogProductId: 71,
      variants: [
        { catalogVariantId: 4011, price: 12.99 },
        { catalogVariantId: 4012, price: 19.99 },
      ],
    },
  };
  const store = storeIntegration({ id: 'int-1', storeName: 'demo.myshopify.com', name: 'Demo Shop' });
  /** A printer quoting free shipping keeps the figures below to price, base cost and fee (the editor's own test
   * covers a shipping line); the wizard asks it for the template's product and the first offered variant. */
  const freeShipping = {
    ok: true,
    provider: 'sandbox',
    name: 'Printful Sandbox',
    currency: 'USD',
    products: '9.25',
    shipping: '0.00',
    total: '9.25',
    shippingMethod: null,
    minDeliveryDays: null,
    maxDeliveryDays: null,
  };
  const catalogRoutes = {
    'GET /api/printful/products/71': () => json(catalogTee),
    'GET /api/settings': () => json(settings),
    'GET /api/quotes/blank?network=printful&catalogProductId=71&catalogVariantId=4011&country=US': () =>
      json(freeShipping),
  };
  const rows = () => screen.getAllByTestId('pricing-row');

  it('offers the catalogue colours x sizes, prices each with fee, profit and margin, and warns below target', async () => {
    seed(ready);
    setup('/create/pricing', { 'GET /api/integrations': () => json([]), ...catalogRoutes });
    expect(await screen.findByRole('button', { name: 'White / S' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Black / S' })).toHaveAttribute('aria-pressed', 'false');
    expect(rows()).toHaveLength(2);
    const first = within(rows()[0] as HTMLElement);
    expect(first.getByText('White / S')).toBeInTheDocument();
    expect(first.getByTestId('base-cost')).toHaveTextContent('$9.25');
    // 12.99 - 9.25 - (0.38 + 0.30) = 3.06: 23.6%, under the workspace's 30%.
    expect(first.getByTestId('profit')).toHaveTextContent('$3.06');
    expect(first.getByTestId('margin-warning')).toHaveTextContent('Below your 30% target margin.');
    expect(within(rows()[1] as HTMLElement).queryByTestId('margin-warning')).toBeNull();

    // A newly offered variant starts at the target margin's price; its colour has no mockup yet.
    fireEvent.click(screen.getByRole('button', { name: 'Black / M' }));
    expect(rows()).toHaveLength(3);
    expect(within(rows()[2] as HTMLElement).getByLabelText('Price of Black / M')).toHaveValue('15.99');
    expect(saved().pricing.variants.at(-1)).toEqual({ catalogVariantId: 4017, price: 15.99 });
    expect(screen.getByTestId('colours-without-mockup')).toHaveTextContent('No mockup shows Black yet');

    fireEvent.change(screen.getByLabelText('Margin (%)'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    expect(saved().pricing.variants.map((v) => v.price)).toEqual([16.99, 16.99, 17.99]);
    expect(screen.queryByTestId('margin-warning')).toBeNull();
  });

  it('refuses to upload without variants', async () => {
    seed({ ...ready, pricing: { catalogProductId: 71, variants: [] } });
    const fetch = setup('/create/pricing', { 'GET /api/integrations': () => json([]), ...catalogRoutes });
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    expect(
      (await screen.findAllByText('Please add at least one product variant before uploading.')).length,
    ).toBeGreaterThan(0);
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('refuses a price below the base cost before asking the server, naming the variant', async () => {
    seed({ ...ready, pricing: { catalogProductId: 71, variants: [{ catalogVariantId: 4011, price: 8 }] } });
    const fetch = setup('/create/pricing', { 'GET /api/integrations': () => json([]), ...catalogRoutes });
    expect(await screen.findByTestId('price-problem')).toHaveTextContent('Price is below its base cost of 9.25');
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('White / S: price is below its base cost of 9.25.');
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('with no store connected, creates the ready product, says it was saved and resets to My Products', async () => {
    seed(ready);
    const fetch = setup('/create/pricing', {
      'GET /api/integrations': () => json([]),
      ...catalogRoutes,
      'POST /api/products': () => json({ id: PRODUCT_ID }, 201),
    });
    expect(await screen.findByTestId('no-stores')).toHaveTextContent('saves the product in My Products');
    expect(screen.getByRole('link', { name: 'My Products' })).toHaveAttribute('href', '/?tab=my-products');
    await screen.findAllByTestId('pricing-row');
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    await waitFor(() => expect(location()).toHaveTextContent('/?tab=my-products'));
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({
      designId: DESIGN_ID,
      mockupId: MOCKUP_ID,
      mockupIds: [MOCKUP_ID],
      title: 'Retro Sunset Tee',
      description: 'A warm sunset.',
      price: 12.99,
      tags: ['retro'],
      productType: 'tshirt',
      catalogProductId: 71,
      provider: 'printful',
      variants: ready.pricing?.variants,
      status: 'ready',
    });
    expect(screen.getByText('Product Saved')).toBeInTheDocument();
    expect(saved()).toEqual(INITIAL_WIZARD);
  });

  it('makes the product on another printer: Printify and its product, whose variants and costs are priced', async () => {
    seed(ready);
    const printifyTee = {
      ...catalogTee,
      id: 6,
      name: 'Unisex Heavy Cotton Tee',
      variants: [{ id: 17391, color: 'White', colorHex: '#ffffff', size: 'S', baseCost: 8.9 }],
    };
    const fetch = setup('/create/pricing', {
      'GET /api/integrations': () => json([]),
      ...catalogRoutes,
      'GET /api/fulfillment/providers': () =>
        json({
          providers: [
            { id: 'printful', name: 'Printful', available: true, connected: false, sandbox: true, accountName: null },
            { id: 'printify', name: 'Printify', available: true, connected: false, sandbox: true, accountName: null },
            { id: 'gelato', name: 'Gelato', available: false, connected: false, sandbox: false, accountName: null },
          ],
        }),
      'GET /api/providers/printify/products': () =>
        json({
          provider: 'printify',
          source: 'printify-sandbox',
          products: [{ id: '6', provider: 'printify', name: 'Unisex Heavy Cotton Tee', description: '' }],
        }),
      'GET /api/providers/printify/catalog/6': () => json(printifyTee),
      'POST /api/products': () => json({ id: PRODUCT_ID }, 201),
    });
    fireEvent.change(await screen.findByLabelText('Printed by'), { target: { value: 'printify' } });
    const product = await screen.findByLabelText('Product');
    await screen.findByRole('option', { name: 'Unisex Heavy Cotton Tee' });
    fireEvent.change(product, { target: { value: '6' } });
    expect(screen.getByText(/Orders of this product go to the built-in sandbox/)).toBeInTheDocument();
    // Printify's variants, at their cost, replace Printful's.
    await waitFor(() => expect(saved().pricing).toMatchObject({ catalogProductId: 6 }));
    await waitFor(() => expect(within(rows()[0] as HTMLElement).getByTestId('base-cost')).toHaveTextContent('$8.90'));
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    await waitFor(() => expect(location()).toHaveTextContent('/?tab=my-products'));
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      provider: 'printify',
      catalogProductId: 6,
      variants: [{ catalogVariantId: 17391 }],
    });
  });

  it('selects the stores of the platform picked in step 1 at the end; the seller can change it (#28)', async () => {
    seed({ ...ready, platform: 'etsy' });
    const etsy = storeIntegration({ id: 'int-3', platform: 'etsy', storeName: 'SunShop', name: 'Sun Shop' });
    setup('/create/pricing', { 'GET /api/integrations': () => json([store, etsy]), ...catalogRoutes });
    const etsyBox = await screen.findByRole('checkbox', { name: /Sun Shop/ });
    expect(etsyBox).toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Demo Shop/ })).not.toBeChecked();
    fireEvent.click(etsyBox);
    expect(etsyBox).not.toBeChecked();
  });

  it('pushes to each selected store; a refusal shows the reason and a retry does not create the product twice', async () => {
    seed(ready);
    let pushes = 0;
    const fetch = setup('/create/pricing', {
      'GET /api/integrations': () => json([store, { ...store, id: 'int-2', name: 'Other', isConnected: false }]),
      ...catalogRoutes,
      'POST /api/products': () => json({ id: PRODUCT_ID }, 201),
      [`PATCH /api/products/${PRODUCT_ID}`]: () => json({ id: PRODUCT_ID }),
      [`POST /api/products/${PRODUCT_ID}/publish`]: () => {
        pushes += 1;
        const ok = pushes > 1;
        return json({
          results: [
            {
              integrationId: 'int-1',
              platform: 'shopify',
              ok,
              remoteProductId: null,
              remoteUrl: null,
              error: ok ? null : 'Shopify publishing is not built yet',
            },
          ],
        });
      },
    });
    // The platform picked in step 1 (Shopify) is selected already (#28).
    expect(await screen.findByRole('checkbox', { name: /Demo Shop/ })).toBeChecked();
    expect(screen.queryByRole('checkbox', { name: /Other/ })).toBeNull();
    await screen.findAllByTestId('pricing-row');
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    const alert = await screen.findByText('Shopify: Shopify publishing is not built yet');
    expect(alert.closest('[role="alert"]')).toHaveTextContent('Upload failed. Please try again.');
    expect(location()).toHaveTextContent('/create/pricing');
    expect(fetch.calls.find((c) => c.url.pathname.endsWith('/publish'))?.body).toEqual({
      integrationIds: ['int-1'],
    });
    // The created product is saved with the wizard, so even a reload would retry it rather than create another.
    expect(saved().createdProductId).toBe(PRODUCT_ID);

    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    await waitFor(() => expect(location()).toHaveTextContent('/?tab=my-products'));
    expect(fetch.calls.filter((c) => c.method === 'POST' && c.url.pathname === '/api/products')).toHaveLength(1);
    // The retry brought that product up to date with the wizard's details and variants before pushing it again.
    const patch = fetch.calls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toMatchObject({ title: 'Retro Sunset Tee', variants: ready.pricing?.variants });
    expect(pushes).toBe(2);
    expect(saved()).toEqual(INITIAL_WIZARD);
  });

  it("shows 'Upload failed. Please try again.' with the server's reason when creating fails", async () => {
    seed(ready);
    setup('/create/pricing', {
      'GET /api/integrations': () => json([]),
      ...catalogRoutes,
      'POST /api/products': () =>
        json({ error: "variants: 'White / S' is priced below its base cost of 9.25", code: 'VALIDATION' }, 400),
    });
    await screen.findAllByTestId('pricing-row');
    fireEvent.click(screen.getByRole('button', { name: 'Upload Product' }));
    const reason = await screen.findByText("variants: 'White / S' is priced below its base cost of 9.25");
    expect(reason.closest('[role="alert"]')).toHaveTextContent('Upload failed. Please try again.');
    expect(saved().details.title).toBe('Retro Sunset Tee');
  });
});
