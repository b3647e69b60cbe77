import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { AiDesignGenerator } from './ai-design-generator';

const image = {
  id: 'd1',
  name: 'sunset.png',
  prompt: 'retro sunset',
  url: '/files/d1.png',
  thumbnailUrl: '/files/d1-thumb.png',
  width: 1024,
  height: 1024,
};

function setup(answer: () => Response, reroll = false) {
  const fetch = fakeFetch({ 'POST /api/ai/designs': answer });
  vi.stubGlobal('fetch', fetch);
  const onImages = vi.fn();
  const onError = vi.fn();
  renderWithProviders(
    <AiDesignGenerator
      title="AI generator"
      placeholder="A retro sunset"
      fieldsClassName=""
      submitLabel="Generate Design"
      reroll={reroll}
      onImages={onImages}
      onError={onError}
    >
      <p>Results here</p>
    </AiDesignGenerator>,
  );
  const generate = () => fireEvent.click(screen.getByRole('button', { name: 'Generate Design' }));
  return { fetch, onImages, onError, generate };
}

afterEach(() => vi.unstubAllGlobals());

describe('AiDesignGenerator', () => {
  it('asks for a prompt, sends the request and hands the saved images over; the caller shows them below', async () => {
    const { fetch, onImages, generate } = setup(() => json({ images: [image] }, 201));
    expect(screen.getByText('Results here')).toBeInTheDocument();
    expect(screen.getByText('One AI credit per image.')).toBeInTheDocument();
    generate();
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a prompt');
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: ' retro sunset ' } });
    generate();
    await waitFor(() => expect(onImages).toHaveBeenCalledWith([image]));
    expect(fetch.calls[0]?.body).toEqual({ prompt: 'retro sunset', size: '1024x1024', n: 1, style: 'vector-clean' });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('sends the next seed on each Generate when it rerolls', async () => {
    const { fetch, onImages, generate } = setup(() => json({ images: [image] }, 201), true);
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    generate();
    await waitFor(() => expect(onImages).toHaveBeenCalledTimes(1));
    generate();
    await waitFor(() => expect(onImages).toHaveBeenCalledTimes(2));
    expect(fetch.calls.map((c) => (c.body as { seed?: number }).seed)).toEqual([0, 1]);
  });

  it("shows the spec's message for a failure and tells the caller; an empty answer says no images came", async () => {
    const failed = setup(() => new Response('', { status: 429 }));
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    failed.generate();
    const message = 'OpenAI rate limit exceeded. Please try again later.';
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(failed.onError).toHaveBeenCalledWith(message);
  });

  it('says so when no images came back', async () => {
    const { onImages, generate } = setup(() => json({ images: [] }, 201));
    fireEvent.change(screen.getByLabelText('Prompt'), { target: { value: 'cat' } });
    generate();
    expect(await screen.findByRole('alert')).toHaveTextContent('No images generated');
    expect(onImages).not.toHaveBeenCalled();
  });
});
