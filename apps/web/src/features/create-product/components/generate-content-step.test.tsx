import type { TAnalyzedImageContent, TDesign } from '@podforge/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPIED_TICK_MS } from '@/components/ui/copy-button';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { GenerateContentStep } from './generate-content-step';

const DESIGN_ID = '11111111-1111-4111-8111-111111111111';
const design: TDesign = {
  id: DESIGN_ID,
  name: 'retro-sunset.png',
  type: 'png',
  size: 8,
  width: 400,
  height: 500,
  url: `/api/designs/${DESIGN_ID}/file/print`,
  vector: false,
  thumbnailUrl: `/api/designs/${DESIGN_ID}/file/thumbnail`,
  originalUrl: `/api/designs/${DESIGN_ID}/file/original`,
  source: 'upload',
  createdAt: '2026-11-22T10:00:00.000Z',
};

const analyzed: TAnalyzedImageContent = {
  title: 'Retro Sunset Unisex T-Shirt',
  description: 'A portrait (4:5) design in red on a transparent background.',
  tags: ['retro sunset', 'red t-shirt'],
  price: 20.99,
  variants: [{ name: 'Size', options: ['S', 'M'] }],
  provider: 'offline',
  creditsRemaining: 99,
  analysis: {
    width: 400,
    height: 500,
    orientation: 'portrait',
    aspect: '4:5',
    colors: [{ name: 'red', hex: '#d81e1e', share: 1 }],
    transparentShare: 0.6,
    transparent: true,
    garmentFit: 'light',
    nameWords: 'Retro Sunset',
    metadata: { title: null, description: null, keywords: [] },
  },
};

function renderStep() {
  return renderWithProviders(
    <>
      <GenerateContentStep design={design} content={null} focusTags={false} onAccept={vi.fn()} onBack={vi.fn()} />
      <Toaster />
    </>,
  );
}

afterEach(() => {
  act(() => dismiss());
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('GenerateContentStep: Analyze Image', () => {
  it("sends the design's own file with the chosen fields and fills the listing from the answer ('Image Analyzed')", async () => {
    const fetch = fakeFetch({
      [`GET ${design.originalUrl}`]: () =>
        new Response(new Uint8Array([0x89, 0x50]), { headers: { 'Content-Type': 'image/png' } }),
      'POST /api/ai/analyze-image': () => json(analyzed),
    });
    vi.stubGlobal('fetch', fetch);
    renderStep();
    fireEvent.change(screen.getByRole('combobox', { name: 'Target audience' }), { target: { value: 'women' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Platform' }), { target: { value: 'etsy' } });
    fireEvent.click(screen.getByRole('button', { name: 'Analyze Image' }));

    expect(await screen.findByText('Image Analyzed')).toBeInTheDocument();
    expect(screen.getByText(/written from the picture \(red\)/)).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue(analyzed.title);
    expect(screen.getByLabelText('Tags (comma separated)')).toHaveValue('retro sunset, red t-shirt');
    const form = fetch.calls.find((c) => c.url.pathname === '/api/ai/analyze-image')?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('image') as File).name).toBe('retro-sunset.png');
    expect([form.get('productType'), form.get('targetAudience'), form.get('platform')]).toEqual([
      'tshirt',
      'women',
      'etsy',
    ]);
  });

  it("says 'Analysis Failed' with the spec's message and the server's reason under it", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        [`GET ${design.originalUrl}`]: () => new Response('text'),
        'POST /api/ai/analyze-image': () =>
          json(
            {
              error: 'retro-sunset.png is not a PNG, JPEG, SVG or PDF file (checked by its content)',
              code: 'UNSUPPORTED_MEDIA_TYPE',
            },
            415,
          ),
      }),
    );
    renderStep();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze Image' }));
    expect(await screen.findByText('Analysis Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to analyze image. Please try again.')).toBeInTheDocument();
    expect(screen.getByTestId('failure-reason')).toHaveTextContent(
      'retro-sunset.png is not a PNG, JPEG, SVG or PDF file (checked by its content)',
    );
    expect(screen.queryByTestId('listing-editor')).not.toBeInTheDocument();
  });
});

describe('GenerateContentStep: copy buttons', () => {
  it('copies the title, description and tags, each showing its tick for 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        [`GET ${design.originalUrl}`]: () => new Response('x'),
        'POST /api/ai/analyze-image': () => json(analyzed),
      }),
    );
    renderStep();
    fireEvent.click(screen.getByRole('button', { name: 'Analyze Image' }));
    await screen.findByTestId('listing-editor');

    fireEvent.click(screen.getByRole('button', { name: 'Copy title' }));
    expect(await screen.findByRole('button', { name: 'Title copied' })).toBeInTheDocument();
    expect(writeText).toHaveBeenLastCalledWith(analyzed.title);
    expect(screen.getByText('Copied to Clipboard')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Copy description' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(analyzed.description));
    fireEvent.click(screen.getByRole('button', { name: 'Copy tags' }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith('retro sunset, red t-shirt'));
    expect(await screen.findByRole('button', { name: 'Tags copied' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(COPIED_TICK_MS - 100));
    expect(screen.getByRole('button', { name: 'Title copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('button', { name: 'Copy title' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy tags' })).toBeInTheDocument();
  });
});

describe('GenerateContentStep: the next step made ready', () => {
  it("asks for the chosen product type's mockup templates while the listing is written (the server decodes them)", async () => {
    const templates = (productType: string) => () => json({ productType, templates: [], colors: [] });
    const fetch = fakeFetch({
      'GET /api/mockups/templates?productType=tshirt': templates('tshirt'),
      'GET /api/mockups/templates?productType=hoodie': templates('hoodie'),
    });
    vi.stubGlobal('fetch', fetch);
    renderStep();
    const asked = () => fetch.calls.map((c) => `${c.url.pathname}${c.url.search}`);
    await waitFor(() => expect(asked()).toContain('/api/mockups/templates?productType=tshirt'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Product type' }), { target: { value: 'hoodie' } });
    await waitFor(() => expect(asked()).toContain('/api/mockups/templates?productType=hoodie'));
  });
});
