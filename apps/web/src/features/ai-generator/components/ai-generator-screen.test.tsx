import type { TAiDesignResponse, TAiStatus, TDashboardStats, TGeneratedContent } from '@podforge/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { type FakeRequest, fakeFetch, json, renderWithProviders } from '@/test/render';
import { AiGeneratorScreen } from './ai-generator-screen';

const DESIGN_ID = '11111111-1111-4111-8111-111111111111';

const stats = {
  aiCredits: { allowance: 200, used: 12, remaining: 188, resetsAt: '2026-12-01T00:00:00.000Z' },
} as TDashboardStats;

const content: TGeneratedContent = {
  title: 'Retro Sunset Cat Unisex T-Shirt',
  description: 'The Retro Sunset Cat design on a t-shirt.\n\nPrinted on the Gildan 64000.',
  tags: ['retro sunset cat', 't-shirt', 'gift idea'],
  price: 17.99,
  variants: [{ name: 'Size', options: ['S', 'M', 'L'] }],
  provider: 'offline',
  creditsRemaining: 187,
};

const designs: TAiDesignResponse = {
  images: [
    {
      id: DESIGN_ID,
      name: 'ai-retro-sunset-1.svg',
      type: 'svg',
      size: 2000,
      width: 1024,
      height: 1024,
      url: `/api/designs/${DESIGN_ID}/file/print`,
      vector: true,
      thumbnailUrl: `/api/designs/${DESIGN_ID}/file/thumbnail`,
      originalUrl: `/api/designs/${DESIGN_ID}/file/original`,
      source: 'ai',
      createdAt: '2026-11-22T10:00:00.000Z',
      prompt: 'retro sunset',
    },
  ],
  provider: 'offline',
  creditsRemaining: 186,
};

const liveModels: TAiStatus = {
  provider: 'openai',
  text: { model: 'gpt-6-luna', shutdownDate: null, retired: false },
  image: { model: 'gpt-image-2.6-flare', shutdownDate: null, retired: false },
  warnings: [],
  checkedAt: '2026-11-27T09:00:00.000Z',
};
const RETIRED_TEXT =
  'The AI provider retired this model (gpt-4o-mini); the operator must choose another (OPENAI_MODEL).';
const RETIRED_IMAGE =
  'The AI provider retired this model (dall-e-2); the operator must choose another (OPENAI_IMAGE_MODEL).';

type Handler = (request: FakeRequest) => Response | Promise<Response>;

function setup(routes: Record<string, Handler> = {}, path = '/?tab=ai-generator') {
  const fetch = fakeFetch({
    'GET /api/dashboard/stats': () => json(stats),
    'GET /api/ai/status': () => json(liveModels),
    'GET /api/ai/generations': () =>
      json({
        generations: [
          {
            id: 'g1',
            kind: 'design',
            summary: '2 line-art designs: “space cat”',
            provider: 'offline',
            credits: 2,
            createdAt: '2026-11-22T09:00:00.000Z',
          },
        ],
      }),
    ...routes,
  });
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(
    <>
      <AiGeneratorScreen />
      <Toaster />
    </>,
    { path },
  );
  return fetch;
}

const contentCalls = (fetch: ReturnType<typeof fakeFetch>) =>
  fetch.calls.filter((c) => c.url.pathname === '/api/ai/generate-content');
const generateButton = () => screen.getByRole('button', { name: /Generate Content|Retry in|Generating/ });
const typeKeywords = (text: string) =>
  fireEvent.change(screen.getByLabelText('Design keywords'), { target: { value: text } });

beforeEach(() => {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => {}) }, configurable: true });
});
afterEach(() => {
  act(() => dismiss());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('AiGeneratorScreen, content', () => {
  it('asks for keywords before calling the server', async () => {
    const fetch = setup();
    fireEvent.click(generateButton());
    expect(await screen.findByText('Keywords Required')).toBeInTheDocument();
    expect(screen.getByText('Please enter some design keywords to generate content.')).toBeInTheDocument();
    expect(contentCalls(fetch)).toHaveLength(0);
  });

  it('sends the full-page shape with the spec defaults, shows the result and the real credits and history', async () => {
    const fetch = setup({ 'POST /api/ai/generate-content': () => json(content) });
    expect(await screen.findByTestId('ai-credits')).toHaveTextContent('188 of 200 AI credits left this month');
    expect(await screen.findByText('2 line-art designs: “space cat”')).toBeInTheDocument();
    typeKeywords('  retro sunset, cat ');
    fireEvent.change(screen.getByLabelText('Target audience'), { target: { value: 'cat lovers' } });
    fireEvent.click(generateButton());

    const generated = await screen.findByTestId('generated-content');
    expect(contentCalls(fetch)[0]?.body).toEqual({
      productType: 'T-Shirt',
      keywords: 'retro sunset, cat',
      audience: 'cat lovers',
      style: '',
      platform: 'Shopify',
      creativity: 7,
      includeSEO: true,
      generateTags: true,
      seed: 0,
    });
    expect(within(generated).getByLabelText('Title')).toHaveValue(content.title);
    expect(within(generated).getByText('$17.99')).toBeInTheDocument();
    expect(within(generated).getByText('gift idea')).toBeInTheDocument();
    expect(screen.getByText('Content Generated')).toBeInTheDocument();

    // Regenerate asks for other wording with the next seed; settings changes are sent.
    fireEvent.change(screen.getByRole('slider'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Generate tags' }));
    fireEvent.click(within(generated).getByRole('button', { name: 'Regenerate' }));
    await waitFor(() => expect(contentCalls(fetch)).toHaveLength(2));
    expect(contentCalls(fetch)[1]?.body).toMatchObject({ seed: 1, creativity: 3, generateTags: false });
  });

  it('copies the edited title and shows the tick for 2 s', async () => {
    setup({ 'POST /api/ai/generate-content': () => json(content) });
    typeKeywords('cat');
    fireEvent.click(generateButton());
    const generated = await screen.findByTestId('generated-content');
    fireEvent.change(within(generated).getByLabelText('Title'), { target: { value: 'My own title' } });
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(within(generated).getByRole('button', { name: 'Copy title' }));
    });
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith('My own title');
    expect(screen.getByText('Copied to Clipboard')).toBeInTheDocument();
    expect(within(generated).getByRole('button', { name: 'Title copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1900));
    expect(within(generated).getByRole('button', { name: 'Title copied' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(within(generated).getByRole('button', { name: 'Copy title' })).toBeInTheDocument();
  });

  it('names the quota, starts a 60 s cooldown and counts Generate down', async () => {
    const fetch = setup({
      'POST /api/ai/generate-content': () =>
        json(
          {
            error: 'AI credits used up',
            code: 'RATE_LIMITED',
            errorType: 'QUOTA_EXCEEDED',
            provider: 'openai',
            message: 'The OpenAI account has no quota left.',
          },
          429,
        ),
    });
    typeKeywords('cat');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(generateButton());
    expect(await screen.findByText('OpenAI Quota Exceeded')).toBeInTheDocument();
    expect(screen.getByText(/Usage limit reached\..*Check your billing or upgrade/)).toBeInTheDocument();
    expect(generateButton()).toHaveTextContent('Retry in 60s');
    expect(generateButton()).toBeDisabled();
    act(() => vi.advanceTimersByTime(1000));
    expect(generateButton()).toHaveTextContent('Retry in 59s');
    act(() => vi.advanceTimersByTime(59_000));
    expect(generateButton()).toHaveTextContent('Generate Content');
    expect(generateButton()).toBeEnabled();
    expect(contentCalls(fetch)).toHaveLength(1);
  });

  it.each([
    [
      { errorType: 'INVALID_API_KEY', error: 'x', code: 'UPSTREAM_ERROR' },
      502,
      'Invalid API Key',
      /check your configuration/,
    ],
    [
      { errorType: 'ACCESS_DENIED', error: 'x', code: 'UPSTREAM_ERROR' },
      502,
      'Access Denied',
      /verify your API key permissions/,
    ],
    [
      { error: 'Invalid body: keywords: too long', code: 'VALIDATION_FAILED' },
      400,
      'Generation Failed',
      /keywords: too long/,
    ],
    [
      { error: 'AI credits used up', code: 'RATE_LIMITED', errorType: 'QUOTA_EXCEEDED', provider: 'credits' },
      429,
      'AI Credit Quota Exceeded',
      /Usage limit reached/,
    ],
    [
      { error: RETIRED_TEXT, code: 'UPSTREAM_ERROR', errorType: 'MODEL_RETIRED', provider: 'openai' },
      502,
      'AI Model Retired',
      /^The AI provider retired this model \(gpt-4o-mini\); the operator must choose another \(OPENAI_MODEL\)\.$/,
    ],
  ])('shows the spec notice for %j', async (body, status, title, description) => {
    setup({ 'POST /api/ai/generate-content': () => json(body, status) });
    typeKeywords('cat');
    fireEvent.click(generateButton());
    expect(await screen.findByText(title)).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
  });

  it('reads a bodiless 429 as Usage Limit Reached and cools down', async () => {
    setup({
      'POST /api/ai/generate-content': () => new Response('', { status: 429, statusText: 'Too Many Requests' }),
    });
    typeKeywords('cat');
    fireEvent.click(generateButton());
    expect(await screen.findByText('Usage Limit Reached')).toBeInTheDocument();
    expect(generateButton()).toHaveTextContent(/Retry in \d+s/);
  });

  it('falls back to the default message when a failure has no body', async () => {
    setup({ 'POST /api/ai/generate-content': () => new Response('', { status: 500, statusText: 'Server Error' }) });
    typeKeywords('cat');
    fireEvent.click(generateButton());
    expect(await screen.findByText('Generation Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to generate content. Please try again.')).toBeInTheDocument();
    expect(generateButton()).toHaveTextContent('Generate Content');
  });
});

describe('AiGeneratorScreen, designs', () => {
  const designCalls = (fetch: ReturnType<typeof fakeFetch>) =>
    fetch.calls.filter((c) => c.url.pathname === '/api/ai/designs');

  it('asks for a prompt, then sends prompt, size, n and style and links each saved design to Create Product', async () => {
    const fetch = setup({ 'POST /api/ai/designs': () => json(designs, 201) });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Designs' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a prompt');
    expect(designCalls(fetch)).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: ' retro sunset ' } });
    fireEvent.change(screen.getByLabelText('Size'), { target: { value: '768x768' } });
    fireEvent.change(screen.getByLabelText('Variations'), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Design style'), { target: { value: 'vintage-crest' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Designs' }));
    const card = await screen.findByTestId('ai-design');
    expect(designCalls(fetch)[0]?.body).toEqual({
      prompt: 'retro sunset',
      size: '768x768',
      n: 3,
      style: 'vintage-crest',
      seed: 0,
    });
    expect(within(card).getByRole('img')).toHaveAttribute('src', designs.images[0]?.thumbnailUrl);
    expect(within(card).getByRole('link', { name: 'Use in Create Product' })).toHaveAttribute(
      'href',
      `/create-product?step=details&designId=${DESIGN_ID}`,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    [401, '', 'Invalid OpenAI API key. Please check your configuration.'],
    [
      502,
      JSON.stringify({ error: 'x', errorType: 'INVALID_API_KEY' }),
      'Invalid OpenAI API key. Please check your configuration.',
    ],
    [429, '', 'OpenAI rate limit exceeded. Please try again later.'],
    [400, '', 'Invalid prompt or parameters'],
    [
      422,
      JSON.stringify({ error: 'Set OPENAI_API_KEY to generate photo-style images.' }),
      'Set OPENAI_API_KEY to generate photo-style images.',
    ],
    [500, '', 'AI generation failed'],
    [502, JSON.stringify({ error: RETIRED_IMAGE, errorType: 'MODEL_RETIRED' }), RETIRED_IMAGE],
  ])('shows the spec message for a %i answer %s', async (status, body, message) => {
    setup({ 'POST /api/ai/designs': () => new Response(body, { status }) });
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Designs' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('says so when no images came back', async () => {
    setup({ 'POST /api/ai/designs': () => json({ ...designs, images: [] }, 201) });
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Designs' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No images generated');
  });
});

describe('AiGeneratorScreen, quick helpers', () => {
  it('chains title, description and tags, and shows the server message on failure', async () => {
    const fetch = setup({
      'POST /api/ai/generate-title': () => json({ title: 'Space Cat Mug', provider: 'offline', creditsRemaining: 5 }),
      'POST /api/ai/generate-description': () =>
        json({ description: 'A cat in space.', provider: 'offline', creditsRemaining: 4 }),
      'POST /api/ai/generate-tags': () => json({ error: 'AI credits used up', errorType: 'QUOTA_EXCEEDED' }, 429),
    });
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: 'space cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Title' }));
    await waitFor(() => expect(screen.getByLabelText('Helper title')).toHaveValue('Space Cat Mug'));
    fireEvent.click(screen.getByRole('button', { name: 'Generate Description' }));
    expect(await screen.findByTestId('quick-description')).toHaveTextContent('A cat in space.');
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'Mugs' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Tags' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('AI credits used up');
    expect(screen.getByText('Unable to generate AI content. Please try again.')).toBeInTheDocument();
    const bodies = fetch.calls.filter((c) => c.method === 'POST').map((c) => [c.url.pathname, c.body]);
    expect(bodies).toEqual([
      ['/api/ai/generate-title', { topic: 'space cat', style: '', audience: '' }],
      ['/api/ai/generate-description', { title: 'Space Cat Mug', style: '', details: '' }],
      ['/api/ai/generate-tags', { title: 'Space Cat Mug', description: 'A cat in space.', category: 'Mugs' }],
    ]);
  });
});

describe('AiGeneratorScreen: the dashboard shortcuts open their section', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("'Generate a design' (#design-generator) focuses the design prompt; 'Write a listing' (#content-generator) the keywords", async () => {
    setup({}, '/?tab=ai-generator#design-generator');
    await waitFor(() => expect(screen.getByLabelText('Prompt')).toHaveFocus());
  });

  it('focuses the keywords for a listing written without a design', async () => {
    setup({}, '/?tab=ai-generator#content-generator');
    await waitFor(() => expect(screen.getByLabelText('Design keywords')).toHaveFocus());
  });
});

describe('AiGeneratorScreen: the AI models notice', () => {
  it('shows nothing while the models are live', async () => {
    const fetch = setup();
    await waitFor(() => expect(fetch.calls.some((c) => c.url.pathname === '/api/ai/status')).toBe(true));
    expect(await screen.findByTestId('ai-credits')).toBeInTheDocument();
    expect(screen.queryByTestId('ai-model-notice')).not.toBeInTheDocument();
  });

  it('tells the seller in the server’s plain words of a model shutting down soon or retired', async () => {
    const warnings = [
      'The AI provider will retire the model for AI listing text (gpt-4o-mini) on 2027-01-14, in 48 days: the operator must choose another (OPENAI_MODEL) before then.',
      'The AI provider retired the model for AI designs (dall-e-2): AI designs fail until the operator chooses another (OPENAI_IMAGE_MODEL).',
    ];
    setup({ 'GET /api/ai/status': () => json({ ...liveModels, warnings }) });
    const notice = await screen.findByTestId('ai-model-notice');
    expect(notice).toHaveTextContent('AI model notice');
    for (const warning of warnings) expect(within(notice).getByText(warning)).toBeInTheDocument();
    expect(notice).not.toHaveTextContent(/try again/i);
  });

  it('no cooldown and no "try again" after a retired model', async () => {
    setup({
      'POST /api/ai/generate-content': () =>
        json({ error: RETIRED_TEXT, code: 'UPSTREAM_ERROR', errorType: 'MODEL_RETIRED', provider: 'openai' }, 502),
    });
    typeKeywords('cat');
    fireEvent.click(generateButton());
    expect(await screen.findByText('AI Model Retired')).toBeInTheDocument();
    expect(generateButton()).toHaveTextContent('Generate Content');
    expect(document.body).not.toHaveTextContent(/try again/i);
  });

  it('reads the status again when a design call says the model was retired since, and shows it', async () => {
    const gone =
      'The AI provider retired the model for AI designs (gpt-image-1.5): AI designs fail until the operator chooses another (OPENAI_IMAGE_MODEL).';
    let retired = false;
    setup({
      'GET /api/ai/status': () => json({ ...liveModels, warnings: retired ? [gone] : [] }),
      'POST /api/ai/designs': () => {
        retired = true;
        return json(
          { error: RETIRED_IMAGE, code: 'UPSTREAM_ERROR', errorType: 'MODEL_RETIRED', provider: 'openai' },
          502,
        );
      },
    });
    expect(await screen.findByTestId('ai-credits')).toBeInTheDocument();
    expect(screen.queryByTestId('ai-model-notice')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate Designs' }));
    expect(await screen.findByTestId('ai-model-notice')).toHaveTextContent(gone);
  });
});
