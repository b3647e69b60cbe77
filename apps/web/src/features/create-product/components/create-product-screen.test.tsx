import { DESIGN_AREAS, DESIGN_MAX_BYTES, type TDesign, type TGeneratedContent } from '@podforge/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { catalogTee } from '@/test/catalog-fixtures';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { SIMPLE_FLOW_STORAGE_KEY } from '../use-simple-flow';
import { CreateProductScreen } from './create-product-screen';

const DESIGN_ID = '11111111-1111-4111-8111-111111111111';
const JOB_ID = '22222222-2222-4222-8222-222222222222';
const PRODUCT_ID = '33333333-3333-4333-8333-333333333333';

const design: TDesign = {
  id: DESIGN_ID,
  name: 'retro-sunset.png',
  type: 'png',
  size: 8,
  width: 4500,
  height: 5400,
  url: `/api/designs/${DESIGN_ID}/file/print`,
  vector: false,
  thumbnailUrl: `/api/designs/${DESIGN_ID}/file/thumbnail`,
  originalUrl: `/api/designs/${DESIGN_ID}/file/original`,
  source: 'upload',
  createdAt: '2026-11-22T10:00:00.000Z',
};

const content: TGeneratedContent = {
  title: 'Retro Sunset Unisex T-Shirt',
  description: 'A warm retro sunset printed on a soft cotton tee.',
  tags: ['retro', 'sunset', 't-shirt'],
  price: 24.99,
  variants: [
    { name: 'Size', options: ['S', 'M', 'L', 'XL', '2XL'] },
    { name: 'Color', options: ['Black', 'White'] },
  ],
  provider: 'offline',
  creditsRemaining: 199,
};

const mockup = (color: string) => ({
  id: `mockup-${color}`,
  templateId: 'tshirt-front',
  color,
  url: `/api/mockups/mockup-${color}/file`,
  previewUrl: `/api/mockups/mockup-${color}/preview`,
  width: 2000,
  height: 2500,
});

const templates = {
  productType: 'tshirt',
  templates: [
    {
      id: 'tshirt-front',
      name: 'Front',
      productType: 'tshirt',
      imageUrl: '/templates/mockups/tshirt/tshirt-front/white.png',
      previewUrl: '/templates/mockups/tshirt/tshirt-front/white.preview.png',
      width: 2000,
      height: 2500,
      designArea: DESIGN_AREAS.tshirt,
      colors: [
        { id: 'white', name: 'White', hex: '#ffffff' },
        { id: 'black', name: 'Black', hex: '#111111' },
      ],
    },
  ],
};

/** The AI status of a server without a key: no models, nothing to warn of. */
const OFFLINE_AI = {
  provider: 'offline',
  text: { model: null, shutdownDate: null, retired: false },
  image: { model: null, shutdownDate: null, retired: false },
  warnings: [],
  checkedAt: null,
};

type Handler = Parameters<typeof fakeFetch>[0][string];

/** Answers by method and path through the shared fake, and returns the recorded calls. */
function stubApi(routes: Record<string, Handler>) {
  const fetch = fakeFetch({ 'GET /api/ai/status': () => json(OFFLINE_AI), ...routes });
  vi.stubGlobal('fetch', fetch);
  return fetch.calls;
}

const png = (name: string, size?: number) => {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
};

function drop(file: File) {
  fireEvent.drop(screen.getByTestId('simple-dropzone'), {
    dataTransfer: {
      files: [file],
      items: [{ kind: 'file', type: file.type, getAsFile: () => file }],
      types: ['Files'],
    },
  });
}

const currentStep = () => document.querySelector('[aria-current="step"]');
const stepButton = (name: RegExp) =>
  within(screen.getByRole('list', { name: 'Create product steps' })).getByRole('button', { name });

function batchRoutes(): Record<string, Handler> {
  let polls = 0;
  return {
    'POST /api/mockups/batch': () =>
      json({ jobId: JOB_ID, status: 'running', done: 0, total: 2, mockups: [], error: null }, 202),
    [`GET /api/mockups/batch/${JOB_ID}`]: () => {
      polls += 1;
      const done = Math.min(2, polls);
      return json({
        jobId: JOB_ID,
        status: done === 2 ? 'done' : 'running',
        done,
        total: 2,
        mockups: [mockup('white'), mockup('black')].slice(0, done),
        error: null,
      });
    },
  };
}

function renderFlow(props: Partial<Parameters<typeof CreateProductScreen>[0]> = {}) {
  return renderWithProviders(
    <>
      <CreateProductScreen step={null} focus={null} onProductCreated={onProductCreated} {...props} />
      <Toaster />
    </>,
    { path: '/create-product' },
  );
}

const onProductCreated = vi.fn();

describe('CreateProductScreen (simple flow)', () => {
  // The later steps load on demand: transformed once here, so no test waits for that on a loaded machine.
  beforeAll(async () => {
    await Promise.all([
      import('./generate-content-step'),
      import('./preview-mockup-step'),
      import('./upload-to-stores-step'),
    ]);
  });
  beforeEach(() => {
    onProductCreated.mockReset();
    sessionStorage.clear();
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  });
  afterEach(() => {
    act(() => dismiss());
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("offers the two ways in: 'Quick create' (this flow) and 'Guided wizard' (the five-step wizard at /create)", () => {
    stubApi({ 'GET /api/designs': () => json([]) });
    renderFlow();
    const ways = screen.getByRole('navigation', { name: 'Ways to create a product' });
    expect(within(ways).getByRole('link', { name: 'Quick create' })).toHaveAttribute('aria-current', 'page');
    expect(within(ways).getByRole('link', { name: 'Guided wizard' })).toHaveAttribute('href', '/create');
  });

  it('goes from upload to content to a rendered mockup to a created draft product, each step enabling the next', async () => {
    const calls = stubApi({
      'GET /api/designs': () => json([]),
      'POST /api/designs/upload': () => json(design, 201),
      'POST /api/ai/generate-content': () => json(content),
      'GET /api/mockups/templates?productType=tshirt': () => json(templates),
      'GET /api/printful/products/71': () => json(catalogTee),
      ...batchRoutes(),
      'POST /api/products': () =>
        json({ id: PRODUCT_ID, title: content.title, status: 'draft' /* the rest is not read */ }, 201),
    });
    renderFlow();

    // Only the first step is open at the start.
    expect(currentStep()).toHaveTextContent('Upload Design');
    expect(stepButton(/Generate Content/)).toBeDisabled();
    expect(stepButton(/Preview Mockup/)).toBeDisabled();
    expect(stepButton(/Upload to Stores/)).toBeDisabled();

    drop(png('retro-sunset.png'));
    await waitFor(() => expect(currentStep()).toHaveTextContent('Generate Content'));
    expect(await screen.findByText('Upload Complete')).toBeInTheDocument();
    const upload = calls.find((c) => c.url.pathname === '/api/designs/upload');
    const form = upload?.body;
    expect(form).toBeInstanceOf(FormData);
    expect((form as FormData).get('file')).toBeInstanceOf(File);
    expect(stepButton(/Upload Design/)).toHaveAttribute('data-status', 'complete');

    // Generate Content needs a file name; it sends the component's fields.
    // The step's code loads when the flow reaches it.
    const filename = await screen.findByLabelText('File name');
    expect(filename).toHaveValue('retro-sunset.png');
    fireEvent.change(filename, { target: { value: '  ' } });
    expect(screen.getByRole('button', { name: 'Generate Content' })).toBeDisabled();
    fireEvent.change(filename, { target: { value: 'retro-sunset.png' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Target audience' }), { target: { value: 'women' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Platform' }), { target: { value: 'etsy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Content' }));
    expect(await screen.findByText('Content Generated')).toBeInTheDocument();
    expect(calls.find((c) => c.url.pathname === '/api/ai/generate-content')?.body).toEqual({
      filename: 'retro-sunset.png',
      productType: 'tshirt',
      targetAudience: 'women',
      platform: 'etsy',
      designDescription: '',
      designId: DESIGN_ID,
      seed: 0,
    });
    expect(stepButton(/Preview Mockup/)).toBeDisabled();

    // The listing is editable: sizes become priced variants, XL and 2XL cost more.
    expect(screen.getByLabelText('Title')).toHaveValue(content.title);
    const variantPrices = screen.getAllByLabelText(/Variant \d price/).map((i) => (i as HTMLInputElement).value);
    expect(variantPrices).toEqual(['24.99', '24.99', '24.99', '26.99', '28.99']);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Retro Sunset Tee for Her' } });
    fireEvent.change(screen.getByLabelText('Tags (comma separated)'), {
      target: { value: 'retro, sunset, Retro, , summer' },
    });
    expect(screen.getByText('3 tags')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Use This Content' }));
    expect(await screen.findByText('Content Accepted')).toBeInTheDocument();
    expect(currentStep()).toHaveTextContent('Preview Mockup');

    // Create Product waits for a rendered mockup; Generate Mockups renders the chosen view in every colour.
    expect(await screen.findByRole('button', { name: 'Create Product' })).toBeDisabled();
    // The server makes it on the type's default blank: the seller is told which.
    expect(await screen.findByTestId('blank-product')).toHaveTextContent(
      'Printed on Unisex Staple T-Shirt | Bella + Canvas 3001 (Bella + Canvas 3001).',
    );
    const generate = await screen.findByRole('button', { name: 'Generate Mockups' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    await waitFor(() => expect(screen.getByTestId('mockup-progress')).toHaveTextContent('2 of 2 rendered'), {
      timeout: 3000,
    });
    const batch = calls.find((c) => c.url.pathname === '/api/mockups/batch');
    expect(batch?.body).toMatchObject({
      designId: DESIGN_ID,
      productType: 'tshirt',
      templateIds: ['tshirt-front'],
      adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
      async: true,
    });
    // The render in the editor's colour is picked; the seller can pick another.
    // Each render is named by the blank's catalogue colour, its picture by design, view and colour (#28).
    expect(screen.getByRole('button', { name: 'Use the White mockup' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('img', { name: 'Mockup: retro-sunset.png on Front, Black' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Use the Black mockup' }));
    expect(screen.getByRole('button', { name: 'Use the Black mockup' })).toHaveAttribute('aria-pressed', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('Product Created')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.url.pathname === '/api/products')?.body).toEqual({
      designId: DESIGN_ID,
      mockupId: 'mockup-black',
      mockupIds: ['mockup-black', 'mockup-white'],
      title: 'Retro Sunset Tee for Her',
      description: content.description,
      price: 24.99,
      tags: ['retro', 'sunset', 'summer'],
      productType: 'tshirt',
      variants: [
        { option: 'S', price: 24.99, sku: 'S' },
        { option: 'M', price: 24.99, sku: 'M' },
        { option: 'L', price: 24.99, sku: 'L' },
        { option: 'XL', price: 26.99, sku: 'XL' },
        { option: '2XL', price: 28.99, sku: '2XL' },
      ],
      // The blank it said it prints on, sent rather than left to the server.
      catalogProductId: 71,
      status: 'draft',
    });
    // Spec: the dashboard switches to My Products, the product id is kept (Upload to Stores opens) and the flow
    // returns to its first step.
    expect(onProductCreated).toHaveBeenCalledTimes(1);
    expect(currentStep()).toHaveTextContent('Upload Design');
    expect(stepButton(/Upload to Stores/)).toBeEnabled();
    expect(JSON.parse(sessionStorage.getItem(SIMPLE_FLOW_STORAGE_KEY) ?? '{}').productId).toBe(PRODUCT_ID);
    // The whole journey with real polling takes about 1.5 s alone; a busy shared machine needed more than 5 s.
  }, 15_000);

  it('prints on the blank picked in the Product Picker (?product=), says so, sends it, and the switch keeps it (#28)', async () => {
    const gildan = { ...catalogTee, id: 438, type: 'tshirt', name: 'Unisex Heavy Cotton Tee | Gildan 5000' };
    Object.assign(gildan, { brand: 'Gildan', model: '5000' });
    sessionStorage.setItem(
      SIMPLE_FLOW_STORAGE_KEY,
      JSON.stringify({
        step: 'mockup',
        design,
        content: {
          title: 'Retro Sunset Tee',
          description: 'Warm.',
          tags: ['retro'],
          price: 24.99,
          variants: [{ option: 'S', price: 24.99, sku: 'S' }],
          productType: 'tshirt',
          platform: 'shopify',
        },
        mockups: [mockup('white')],
        mockup: mockup('white'),
        productId: null,
      }),
    );
    const calls = stubApi({
      'GET /api/mockups/templates?productType=tshirt': () => json(templates),
      'GET /api/printful/products/438': () => json(gildan),
      'POST /api/products': () => json({ id: PRODUCT_ID, title: 'Retro Sunset Tee', status: 'draft' }, 201),
    });
    renderFlow({ product: '438', category: '24' });
    expect(await screen.findByTestId('blank-product')).toHaveTextContent(
      'Printed on Unisex Heavy Cotton Tee | Gildan 5000 (Gildan 5000).',
    );
    const ways = screen.getByRole('navigation', { name: 'Ways to create a product' });
    expect(within(ways).getByRole('link', { name: 'Guided wizard' })).toHaveAttribute(
      'href',
      '/create?product=438&category=24',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create Product' }));
    expect(await screen.findByText('Product Created')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      catalogProductId: 438,
      productType: 'tshirt',
    });
    // Never the default shirt.
    expect(calls.some((c) => c.url.pathname === '/api/printful/products/71')).toBe(false);
  });

  it('refuses a file over the one design limit (50 MB) and a file of another type in the browser', async () => {
    const calls = stubApi({ 'GET /api/designs': () => json([]) });
    renderFlow();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.getByText('PNG, JPEG, SVG or PDF, up to 50 MB')).toBeInTheDocument();

    drop(png('huge.png', DESIGN_MAX_BYTES + 1));
    expect(await screen.findByText('File Too Large')).toBeInTheDocument();
    expect(screen.getByText('Please upload a file smaller than 50 MB.')).toBeInTheDocument();

    drop(new File(['hi'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Invalid File Type')).toBeInTheDocument();
    expect(screen.getByText('Please upload a PNG, JPEG, SVG, or PDF file.')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.map((c) => c.url.pathname)).toEqual(['/api/designs']);
    expect(currentStep()).toHaveTextContent('Upload Design');
  });

  it("shows the server's reason when the upload is refused, and stays on the upload step", async () => {
    stubApi({
      'GET /api/designs': () => json([]),
      'POST /api/designs/upload': () =>
        json({ error: 'fake.png is not a PNG, JPEG, SVG or PDF file (checked by its content)', code: 'X' }, 415),
    });
    renderFlow();
    drop(png('fake.png'));
    expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
    expect(screen.getByText(/fake.png is not a PNG, JPEG, SVG or PDF file/)).toBeInTheDocument();
    expect(currentStep()).toHaveTextContent('Upload Design');
    expect(stepButton(/Generate Content/)).toBeDisabled();
  });

  it('opens a design handed over by Process Design on the listing step and focuses tags when asked', async () => {
    const calls = stubApi({
      [`GET /api/designs/${DESIGN_ID}`]: () => json(design),
      'POST /api/ai/generate-content': () => json(content),
    });
    renderFlow({ step: 'details', focus: 'tags', designId: DESIGN_ID });
    await waitFor(() => expect(currentStep()).toHaveTextContent('Generate Content'));
    expect(await screen.findByLabelText('File name')).toHaveValue('retro-sunset.png');
    fireEvent.click(screen.getByRole('button', { name: 'Generate Content' }));
    await waitFor(() => expect(screen.getByLabelText('Tags (comma separated)')).toHaveFocus());
    // Regenerate asks for other wording with the next seed.
    fireEvent.click(screen.getByRole('button', { name: 'Regenerate Content' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST').map((c) => (c.body as { seed: number }).seed)).toEqual([0, 1]);
  });

  it('says why the listing step cannot open yet when the shortcut is used before any upload', async () => {
    stubApi({ 'GET /api/designs': () => json([]) });
    renderFlow({ step: 'details' });
    expect(screen.getByRole('status')).toHaveTextContent(/^Upload a design first: the listing is written for it\./);
    expect(currentStep()).toHaveTextContent('Upload Design');
    // 'Write a listing' with no design: the seller can write one from keywords instead.
    expect(screen.getByRole('link', { name: 'Write a listing from keywords' })).toHaveAttribute(
      'href',
      '/?tab=ai-generator#content-generator',
    );
  });

  it('names the AI failure: used-up credits get their own notice, other errors the spec text', async () => {
    let answer = () =>
      json(
        {
          error: 'AI credits used up',
          code: 'RATE_LIMITED',
          errorType: 'QUOTA_EXCEEDED',
          message: 'This workspace has used its 200 AI credits for November.',
        },
        429,
      );
    stubApi({
      [`GET /api/designs/${DESIGN_ID}`]: () => json(design),
      'POST /api/ai/generate-content': () => answer(),
    });
    renderFlow({ step: 'details', designId: DESIGN_ID });
    // The button shows before the design's name arrives, disabled until then: a click before it would do nothing.
    const generate = await screen.findByRole('button', { name: 'Generate Content' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    expect(await screen.findByText('AI Credits Used Up')).toBeInTheDocument();
    expect(screen.getByText('This workspace has used its 200 AI credits for November.')).toBeInTheDocument();

    answer = () => new Response('', { status: 502, statusText: 'Bad Gateway' });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Content' }));
    expect(await screen.findByText('Generation Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to generate content. Please try again.')).toBeInTheDocument();
    expect(stepButton(/Preview Mockup/)).toBeDisabled();
  });

  it('warns about Etsy listing limits before the push', async () => {
    stubApi({
      [`GET /api/designs/${DESIGN_ID}`]: () => json(design),
      'POST /api/ai/generate-content': () => json(content),
    });
    renderFlow({ step: 'details', designId: DESIGN_ID });
    fireEvent.change(await screen.findByRole('combobox', { name: 'Platform' }), { target: { value: 'etsy' } });
    const generate = screen.getByRole('button', { name: 'Generate Content' });
    await waitFor(() => expect(generate).toBeEnabled());
    fireEvent.click(generate);
    const title = await screen.findByLabelText('Title');
    fireEvent.change(title, { target: { value: 'x'.repeat(141) } });
    fireEvent.change(screen.getByLabelText('Tags (comma separated)'), {
      target: { value: 'a very long tag over twenty' },
    });
    const problems = screen.getByTestId('listing-problems');
    expect(problems).toHaveTextContent('Etsy titles are at most 140 characters (this one has 141).');
    expect(problems).toHaveTextContent("Etsy tags are at most 20 characters: 'a very long tag over twenty'.");
    fireEvent.change(title, { target: { value: '' } });
    expect(screen.getByText('The listing needs a title.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use This Content' })).toBeDisabled();
  });

  describe('Upload to Stores', () => {
    const store = (id: string, name: string) => storeIntegration({ id, storeName: name, name });
    const openStoresStep = () => {
      sessionStorage.setItem(
        SIMPLE_FLOW_STORAGE_KEY,
        JSON.stringify({ step: 'stores', design, content: null, mockup: null, productId: PRODUCT_ID }),
      );
      renderFlow();
    };

    it('says there are no connected stores and links to Integrations', async () => {
      stubApi({
        'GET /api/integrations': () =>
          json([
            { ...store('p1', 'Printful'), kind: 'fulfillment', platform: 'printful' },
            { ...store('s0', 'Old'), isConnected: false },
          ]),
      });
      openStoresStep();
      expect(await screen.findByText('No Connected Stores')).toBeInTheDocument();
      expect(screen.getByText('Connect your stores in the Integrations tab to upload products.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to Integrations' })).toHaveAttribute('href', '/integrations');
    });

    it('still shows a failed scheduled upload and its reason while no store is connected', async () => {
      stubApi({
        'GET /api/integrations': () => json([{ ...store('s0', 'Old'), isConnected: false, status: 'disconnected' }]),
        [`GET /api/products/${PRODUCT_ID}/schedules`]: () =>
          json([
            {
              id: 'sch-1',
              productId: PRODUCT_ID,
              platform: 'shopify',
              scheduledDate: '2026-12-24',
              scheduledTime: '09:30',
              timeZone: 'UTC',
              runAt: '2026-12-24T09:30:00.000Z',
              status: 'failed',
              integrationId: 's0',
              error: 'The store Old is disconnected: connect it again in Integrations.',
              createdAt: '2026-11-22T10:00:00.000Z',
            },
          ]),
      });
      openStoresStep();
      expect(await screen.findByText('No Connected Stores')).toBeInTheDocument();
      const row = await screen.findByTestId('schedule');
      expect(row).toHaveTextContent('Failed');
      expect(row).toHaveTextContent('The store Old is disconnected: connect it again in Integrations.');
    });

    it('selects stores, uploads to all of them in one call and reports the count', async () => {
      const result = (integrationId: string, ok: boolean) => ({
        integrationId,
        platform: 'shopify',
        ok,
        remoteProductId: ok ? 'gid://shopify/Product/1' : null,
        remoteUrl: null,
        error: ok ? null : 'Shopify refused the product',
      });
      const calls = stubApi({
        'GET /api/integrations': () => json([store('s1', 'Sunset Shop'), store('s2', 'Cat Shop')]),
        [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json([]),
        [`POST /api/products/${PRODUCT_ID}/publish`]: () =>
          json({ results: [result('s1', true), result('s2', false)] }),
      });
      openStoresStep();
      await screen.findByText('Sunset Shop');
      expect(screen.getByTestId('stores-selected')).toHaveTextContent('0 of 2 stores selected');
      expect(screen.getByRole('button', { name: 'Upload Now' })).toBeDisabled();
      fireEvent.click(screen.getByRole('button', { name: 'Select All' }));
      expect(screen.getByTestId('stores-selected')).toHaveTextContent('2 of 2 stores selected');
      fireEvent.click(screen.getByRole('button', { name: 'Deselect All' }));
      fireEvent.click(screen.getByRole('checkbox', { name: /Sunset Shop/ }));
      fireEvent.click(screen.getByRole('checkbox', { name: /Cat Shop/ }));
      fireEvent.click(screen.getByRole('button', { name: 'Upload Now' }));
      expect(await screen.findByText('Product uploaded to 1 of 2 stores.')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ integrationIds: ['s1', 's2'] }]);
      expect(screen.getByTestId('stores-selected')).toHaveTextContent('0 of 2 stores selected');
    });

    it('schedules the upload in the seller’s zone, lists it and cancels it', async () => {
      let scheduled: unknown[] = [];
      const calls = stubApi({
        'GET /api/integrations': () => json([store('s1', 'Sunset Shop')]),
        [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json(scheduled),
        'POST /api/schedule-upload': (request) => {
          const body = request.body as Record<string, string>;
          scheduled = [
            {
              id: 'sch1',
              productId: PRODUCT_ID,
              platform: body.platform,
              scheduledDate: body.scheduledDate,
              scheduledTime: body.scheduledTime,
              timeZone: body.timeZone,
              runAt: '2099-06-01T09:30:00.000Z',
              status: 'pending',
              integrationId: body.integrationId,
              error: null,
              createdAt: '2026-11-22T12:00:00.000Z',
            },
          ];
          return json(scheduled[0], 201);
        },
        'DELETE /api/schedule-upload/sch1': () => {
          const cancelled = { ...(scheduled[0] as object), status: 'cancelled' };
          scheduled = [];
          return json(cancelled);
        },
      });
      openStoresStep();
      fireEvent.click(await screen.findByRole('checkbox', { name: /Sunset Shop/ }));
      fireEvent.click(screen.getByRole('switch', { name: 'Schedule Upload' }));
      fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2099-06-01' } });
      fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
      fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
      expect(await screen.findByText('Product upload to Shopify has been scheduled.')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        productId: PRODUCT_ID,
        platform: 'shopify',
        integrationId: 's1',
        scheduledDate: '2099-06-01',
        scheduledTime: '09:30',
        status: 'pending',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });

      const item = await screen.findByTestId('schedule');
      expect(item).toHaveTextContent('Shopify');
      expect(item).toHaveTextContent('Pending');
      fireEvent.click(within(item).getByRole('button', { name: 'Cancel' }));
      expect(await screen.findByText('Schedule Cancelled')).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByTestId('schedule')).not.toBeInTheDocument());
    });

    it('checks the schedule fields and refuses a time in the past', async () => {
      const calls = stubApi({
        'GET /api/integrations': () => json([store('s1', 'Sunset Shop')]),
        [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json([]),
      });
      openStoresStep();
      fireEvent.click(await screen.findByRole('checkbox', { name: /Sunset Shop/ }));
      fireEvent.click(screen.getByRole('switch', { name: 'Schedule Upload' }));
      fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
      expect(await screen.findByText('Missing Information')).toBeInTheDocument();
      fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2020-01-01' } });
      fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:00' } });
      fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
      expect(await screen.findByText('Invalid Date')).toBeInTheDocument();
      expect(screen.getByText('Please select a future date and time.')).toBeInTheDocument();
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    });
  });
});
