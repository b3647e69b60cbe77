import type { TDesign } from '@podforge/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { json, renderWithProviders } from '@/test/render';
import { UploadScreen } from './upload-screen';

const design: TDesign = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'good',
  type: 'png',
  size: 8,
  width: 4500,
  height: 5400,
  url: '/api/designs/11111111-1111-4111-8111-111111111111/file/print',
  vector: false,
  thumbnailUrl: '/api/designs/11111111-1111-4111-8111-111111111111/file/thumbnail',
  originalUrl: '/api/designs/11111111-1111-4111-8111-111111111111/file/original',
  source: 'upload',
  createdAt: '2025-01-01T00:00:00.000Z',
};

const png = (name: string) =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], name, {
    type: 'image/png',
  });

/** Drops files on the dropzone the way a browser does (a DataTransfer with file items). */
function drop(files: File[]) {
  fireEvent.drop(screen.getByTestId('dropzone'), {
    dataTransfer: {
      files,
      items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })),
      types: ['Files'],
    },
  });
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

type Call = { url: string; init: RequestInit | undefined };

describe('UploadScreen', () => {
  let calls: Call[] = [];
  beforeEach(() => {
    calls = [];
  });
  afterEach(() => {
    act(() => dismiss());
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('uploads each chosen file as multipart, shows one complete and one failed item, toasts both, and removes items', async () => {
    // Answers are released one at a time: the toaster shows one toast at a time, so each toast is checked in turn.
    const answers = { 'good.png': deferred<Response>(), 'bad.png': deferred<Response>() };
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      // The queue place is asked while a file uploads; nobody waits in this test.
      if (url.startsWith('/api/designs/queue/')) {
        return json({ uploadId: url.split('/').pop(), state: 'unknown', position: null, waiting: 0 });
      }
      calls.push({ url, init });
      if (url !== '/api/designs/upload') throw new Error(`Unexpected request to ${url}`);
      const file = (init?.body instanceof FormData ? init.body.get('file') : null) as File | null;
      if (!file) throw new Error('Upload without a file field');
      return answers[file.name as keyof typeof answers].promise;
    });

    renderWithProviders(
      <>
        <UploadScreen />
        <Toaster />
      </>,
    );
    await userEvent.upload(screen.getByTestId('file-input'), [png('good.png'), png('bad.png')]);

    const items = await screen.findAllByTestId('upload-item');
    expect(items).toHaveLength(2);
    for (const item of items) {
      expect(item).toHaveAttribute('data-status', 'uploading');
      expect(within(item).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '75');
    }

    // Both requests: POST, multipart (FormData, so the browser sets the boundary), the file in field 'file'.
    await waitFor(() => expect(calls).toHaveLength(2));
    for (const { url, init } of calls) {
      expect(url).toBe('/api/designs/upload');
      expect(init?.method).toBe('POST');
      expect(init?.credentials).toBe('include');
      expect(init?.body).toBeInstanceOf(FormData);
      // The only header is the upload's id (the browser sets the multipart content type itself).
      expect(Object.keys(init?.headers ?? {})).toEqual(['x-upload-id']);
      const form = init?.body as FormData;
      expect([...form.keys()]).toEqual(['file']);
      expect(form.get('file')).toBeInstanceOf(File);
    }
    const names = calls.map(
      ({ init }) => ((init?.body as FormData | undefined)?.get('file') as File | undefined)?.name,
    );
    expect(names.sort()).toEqual(['bad.png', 'good.png']);

    answers['good.png'].resolve(json(design, 201));
    expect(await screen.findByText('Upload Complete')).toBeInTheDocument();
    expect(screen.getByText('good.png has been uploaded successfully.')).toBeInTheDocument();

    answers['bad.png'].resolve(
      json(
        {
          error: 'bad.png is not a PNG, JPEG, SVG or PDF file (checked by its content)',
          code: 'UNSUPPORTED_MEDIA_TYPE',
        },
        415,
      ),
    );
    expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to upload bad.png . Please try again.')).toBeInTheDocument();

    const good = screen.getByText('good.png').closest('li') as HTMLElement;
    const bad = screen.getByText('bad.png').closest('li') as HTMLElement;
    expect(good).toHaveAttribute('data-status', 'complete');
    expect(good).toHaveTextContent('Upload complete • 4500×5400');
    expect(within(good).getByRole('button', { name: 'Process Design' })).toBeInTheDocument();
    expect(within(good).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(bad).toHaveAttribute('data-status', 'error');
    expect(bad).toHaveTextContent('Upload failed • Please try again');
    // The server's reason, under the spec's notice and on the item: a text file named .png says so.
    const reason = 'bad.png is not a PNG, JPEG, SVG or PDF file (checked by its content)';
    expect(screen.getByTestId('failure-reason')).toHaveTextContent(reason);
    expect(bad).toHaveTextContent(reason);
    expect(within(bad).queryByRole('button', { name: 'Process Design' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Remove bad.png' }));
    expect(screen.getAllByTestId('upload-item')).toHaveLength(1);
    expect(screen.queryByText('bad.png')).not.toBeInTheDocument();
    expect(screen.getByTestId('upload-item')).toHaveAttribute('data-status', 'complete');

    await userEvent.click(screen.getByRole('button', { name: 'Remove good.png' }));
    expect(screen.queryAllByTestId('upload-item')).toHaveLength(0);
    expect(screen.queryByText('Upload Queue')).not.toBeInTheDocument();
    expect(calls).toHaveLength(2);
  });

  it('rejects a file over 50 MB and a file of the wrong type in the browser, without a request', async () => {
    const fetchSpy = vi.fn(async () => {
      throw new Error('no request expected');
    });
    vi.stubGlobal('fetch', fetchSpy);
    renderWithProviders(<UploadScreen />);

    const huge = png('huge.png');
    Object.defineProperty(huge, 'size', { value: 50 * 1024 * 1024 + 1 });
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    drop([huge, text]);

    const rejections = await screen.findByTestId('rejections');
    const [hugeLine, textLine] = within(rejections).getAllByRole('listitem');
    // react-dropzone 19 words the size in units (52428800 bytes = 50 MB).
    expect(hugeLine).toHaveTextContent('huge.png: File is larger than 50 MB');
    expect(textLine).toHaveTextContent(
      'notes.txt: File type must be one of image/png, .png, image/jpeg, .jpg, .jpeg, image/svg+xml, .svg, application/pdf, .pdf',
    );
    expect(screen.queryByTestId('upload-item')).not.toBeInTheDocument();
    expect(screen.queryByText('Upload Queue')).not.toBeInTheDocument();
    // Give any stray upload a chance to start before asserting none did.
    await new Promise((r) => setTimeout(r, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('uploads a file of exactly 50 MB (the limit is inclusive)', async () => {
    const fetchSpy = vi.fn(async (input: RequestInfo | URL) =>
      String(input).startsWith('/api/designs/queue/')
        ? json({ uploadId: 'x', state: 'unknown', position: null, waiting: 0 })
        : json(design, 201),
    );
    vi.stubGlobal('fetch', fetchSpy);
    renderWithProviders(<UploadScreen />);

    const atLimit = png('limit.png');
    Object.defineProperty(atLimit, 'size', { value: 50 * 1024 * 1024 });
    drop([atLimit]);

    await waitFor(() => expect(screen.getByTestId('upload-item')).toHaveAttribute('data-status', 'complete'));
    expect(screen.queryByTestId('rejections')).not.toBeInTheDocument();
    expect(fetchSpy.mock.calls.filter(([url]) => url === '/api/designs/upload')).toHaveLength(1);
  });

  it("shows a waiting upload's place in the server's decode queue, then that it is processed, then the result", async () => {
    const answer = deferred<Response>();
    let uploadId = '';
    const places = [
      { state: 'waiting', position: 2, waiting: 3 },
      { state: 'waiting', position: 1, waiting: 2 },
      { state: 'processing', position: null, waiting: 1 },
    ];
    const polls: string[] = [];
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/designs/upload') {
        uploadId = (init?.headers as Record<string, string> | undefined)?.['x-upload-id'] ?? '';
        return answer.promise;
      }
      if (url.startsWith('/api/designs/queue/')) {
        polls.push(url);
        const place = places[Math.min(polls.length, places.length) - 1];
        return json({ uploadId: url.split('/').pop(), ...place });
      }
      throw new Error(`Unexpected request to ${url}`);
    });
    renderWithProviders(<UploadScreen />);
    await userEvent.upload(screen.getByTestId('file-input'), [png('queued.png')]);

    const item = await screen.findByTestId('upload-item');
    expect(await within(item).findByText('Waiting in queue • position 2 of 3')).toBeInTheDocument();
    // The browser asks for its own upload: the id it sent with the file.
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(polls[0]).toBe(`/api/designs/queue/${uploadId}`);
    expect(
      await within(item).findByText('Waiting in queue • position 1 of 2', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(await within(item).findByText('Processing the file…', {}, { timeout: 5000 })).toBeInTheDocument();

    answer.resolve(json(design, 201));
    await waitFor(() => expect(item).toHaveAttribute('data-status', 'complete'));
    expect(within(item).queryByTestId('queue-position')).not.toBeInTheDocument();
    // Once the upload is answered, the place is no longer asked for.
    const asked = polls.length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(polls).toHaveLength(asked);
  });
});
