import type { TSchedule } from '@podforge/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { scheduleRefreshInterval } from '@/lib/schedules';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { ScheduleSection } from './schedule-dialog';

const PRODUCT_ID = '33333333-3333-4333-8333-333333333333';
const NOW = new Date(2026, 10, 22, 12, 0);

const store = storeIntegration({ id: 'store-1' });

const schedule = (id: string, over: Partial<TSchedule> = {}): TSchedule => ({
  id,
  productId: PRODUCT_ID,
  platform: 'shopify',
  scheduledDate: '2026-12-24',
  scheduledTime: '09:30',
  timeZone: 'UTC',
  runAt: '2026-12-24T09:30:00.000Z',
  status: 'pending',
  integrationId: 'store-1',
  error: null,
  createdAt: '2026-11-22T10:00:00.000Z',
  ...over,
});

function setup(routes: Parameters<typeof fakeFetch>[0], status: 'draft' | 'live' = 'draft') {
  const fetch = fakeFetch(routes);
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(
    <>
      <ScheduleSection
        product={{
          id: PRODUCT_ID,
          status,
          storeCopies:
            status === 'live'
              ? [
                  {
                    integrationId: 'store-1',
                    platform: 'shopify',
                    storeName: 'Cat Shop',
                    status: 'published',
                    url: null,
                    error: null,
                    changesNotInStore: false,
                  },
                ]
              : [],
        }}
        now={() => NOW}
      />
      <Toaster />
    </>,
  );
  return fetch;
}

afterEach(() => {
  act(() => dismiss());
  vi.unstubAllGlobals();
});

describe('ScheduleSection (My Products and the product preview)', () => {
  it('schedules any product to a connected store: the date minimum is today; Upload Scheduled; the list shows it', async () => {
    let list: TSchedule[] = [];
    const fetch = setup({
      'GET /api/integrations': () => json([store]),
      [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json(list),
      'GET /api/schedules': () => json(list),
      'POST /api/schedule-upload': () => {
        list = [schedule('s1')];
        return json(list[0], 201);
      },
    });
    const date = (await screen.findByLabelText('Date')) as HTMLInputElement;
    expect(date.min).toBe('2026-11-22');

    fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
    expect(await screen.findByText('Missing Information')).toBeInTheDocument();

    fireEvent.change(date, { target: { value: '2026-11-22' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '11:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
    expect(await screen.findByText('Invalid Date')).toBeInTheDocument();

    fireEvent.change(date, { target: { value: '2026-12-24' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
    expect(await screen.findByText('Upload Scheduled')).toBeInTheDocument();
    expect(screen.getByText('Product upload to Shopify has been scheduled.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      productId: PRODUCT_ID,
      platform: 'shopify',
      integrationId: 'store-1',
      scheduledDate: '2026-12-24',
      scheduledTime: '09:30',
      status: 'pending',
    });
    const row = await screen.findByTestId('schedule');
    expect(row).toHaveTextContent('Pending');
    expect(within(row).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it("shows the server's reason under 'Scheduling Failed' (a product that went live meanwhile)", async () => {
    setup({
      'GET /api/integrations': () => json([store]),
      [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json([]),
      'POST /api/schedule-upload': () =>
        json({ error: '"Cat Tee" is already live; it cannot be uploaded again', code: 'CONFLICT' }, 409),
    });
    fireEvent.change(await screen.findByLabelText('Date'), { target: { value: '2026-12-24' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Upload' }));
    expect(await screen.findByText('Scheduling Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to schedule upload. Please try again.')).toBeInTheDocument();
    expect(screen.getByTestId('failure-reason')).toHaveTextContent(
      '"Cat Tee" is already live; it cannot be uploaded again',
    );
  });

  it("shows the server's reason under 'Cancellation Failed' for a schedule that already ran, and its real status", async () => {
    let list = [schedule('s1')];
    setup({
      'GET /api/integrations': () => json([store]),
      [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json(list),
      'GET /api/schedules': () => json([]),
      'DELETE /api/schedule-upload/s1': () => {
        list = [schedule('s1', { status: 'completed' })];
        return json({ error: 'Only a pending upload can be cancelled; this one is completed', code: 'CONFLICT' }, 409);
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Cancellation Failed')).toBeInTheDocument();
    expect(screen.getByTestId('failure-reason')).toHaveTextContent(
      'Only a pending upload can be cancelled; this one is completed',
    );
    await waitFor(() => expect(screen.getByTestId('schedule')).toHaveTextContent('Completed'));
    expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument();
  });

  it('shows a failed run with its reason while no store is connected, and says how to connect one', async () => {
    setup({
      'GET /api/integrations': () => json([{ ...store, status: 'disconnected', isConnected: false }]),
      [`GET /api/products/${PRODUCT_ID}/schedules`]: () =>
        json([schedule('s1', { status: 'failed', error: 'No Shopify store is connected. Connect one first.' })]),
    });
    const row = await screen.findByTestId('schedule');
    expect(row).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('No Shopify store is connected. Connect one first.');
    expect(screen.getByText(/No Connected Stores/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Schedule Upload' })).not.toBeInTheDocument();
  });

  it('offers no form for a product live in every connected store, but still lists its schedules', async () => {
    setup(
      {
        'GET /api/integrations': () => json([store]),
        [`GET /api/products/${PRODUCT_ID}/schedules`]: () => json([schedule('s1', { status: 'completed' })]),
      },
      'live',
    );
    expect(await screen.findByTestId('schedule')).toHaveTextContent('Completed');
    expect(
      screen.getByText('This product is live in every connected store: send changes there with Update in store.'),
    ).toBeInTheDocument();
  });
});

describe('scheduleRefreshInterval', () => {
  const now = new Date('2026-11-22T12:00:00.000Z');
  it('reads again every 3 s while one runs or is due within 2 minutes, 30 s while one waits, never when all ended', () => {
    expect(scheduleRefreshInterval([schedule('a', { status: 'running' })], now)).toBe(3_000);
    expect(scheduleRefreshInterval([schedule('a', { runAt: '2026-11-22T12:01:00.000Z' })], now)).toBe(3_000);
    expect(scheduleRefreshInterval([schedule('a', { runAt: '2026-11-22T13:00:00.000Z' })], now)).toBe(30_000);
    expect(
      scheduleRefreshInterval(
        [schedule('a', { status: 'completed' }), schedule('b', { status: 'failed', error: 'x' })],
        now,
      ),
    ).toBe(false);
    expect(scheduleRefreshInterval(undefined, now)).toBe(false);
  });
});
