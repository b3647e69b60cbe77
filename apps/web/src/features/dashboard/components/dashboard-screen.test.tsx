import type { TDashboardStats } from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { DashboardScreen } from './dashboard-screen';

const stats: TDashboardStats = {
  month: 'November 2026',
  totalProducts: 6,
  totalProductsTrend: { delta: 2, percent: 50 },
  pendingUploads: 3,
  weeklyUploads: 3,
  thisWeek: 3,
  weeklyUploadsTrend: { delta: 2, percent: 200 },
  aiCredits: { allowance: 200, used: 44, remaining: 156, resetsAt: '2026-12-01T00:00:00.000Z' },
  store: null,
  storage: { usedBytes: 12.5 * 1024 * 1024, quotaBytes: 2048 * 1024 * 1024 },
  recentUploads: [],
};

const uploads = [
  {
    id: '1',
    title: 'Retro Sunset Tee',
    status: 'ready',
    createdAt: '2026-11-20T10:00:00Z',
    thumbnailUrl: '/api/mockups/m1/preview',
  },
  { id: '2', title: 'Cat Mug', status: 'live', createdAt: '2026-11-19T10:00:00Z' },
  { id: '3', title: 'Odd Poster', status: 'archived', createdAt: '2026-11-18T10:00:00Z' },
];

afterEach(() => vi.unstubAllGlobals());

describe('DashboardScreen', () => {
  it('shows 4 card and 3 row skeletons while loading', () => {
    vi.stubGlobal('fetch', () => new Promise(() => {}));
    renderWithProviders(<DashboardScreen onNavigate={() => {}} />);
    expect(screen.getAllByTestId('skeleton')).toHaveLength(7);
    // The snapshot says its figures are on the way, not that there are none.
    const snapshot = screen.getByLabelText('Performance snapshot');
    expect(snapshot).toHaveAttribute('aria-busy', 'true');
    expect(within(snapshot).getByText('Loading figures…')).toBeInTheDocument();
    expect(within(snapshot).queryByText('No store data yet')).not.toBeInTheDocument();
    expect(within(snapshot).getByText('Total Products').nextSibling).toHaveTextContent('…');
  });

  it('shows the real figures, trends and recent uploads', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/dashboard/stats': () => json(stats),
        '/api/dashboard/recent-uploads?limit=3': () => json(uploads),
      }),
    );
    const onNavigate = vi.fn();
    renderWithProviders(<DashboardScreen onNavigate={onNavigate} />);
    const cards = await screen.findAllByTestId('stat-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      expect.stringContaining('Total Products6+50% from last month'),
      expect.stringContaining('Pending Uploads3Ready to publish'),
      expect.stringContaining('This Week3+2 from last week'),
      expect.stringContaining('AI Credits156of 200 · Resets monthly'),
    ]);
    const rows = await screen.findAllByTestId('recent-upload-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0] as HTMLElement).getByText('Ready')).toBeInTheDocument();
    // The product's picture when it has one; the placeholder when it has none.
    expect((rows[0] as HTMLElement).querySelector('img')).toHaveAttribute('src', '/api/mockups/m1/preview');
    expect(within(rows[1] as HTMLElement).getByText('IMG')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Live')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('archived')).toBeInTheDocument();
    expect(screen.getByTestId('no-store-data')).toHaveTextContent('No store data yet');
    // The workspace's stored files against its quota, as the server counts them.
    expect(screen.getByTestId('storage-use')).toHaveTextContent('Storage12.5 MB of 2 GB');
    expect(screen.getByLabelText('Storage used')).toHaveAttribute('value', String(12.5 * 1024 * 1024));

    await userEvent.click(rows[1] as HTMLElement);
    expect(onNavigate).toHaveBeenLastCalledWith('my-products');
    await userEvent.click(screen.getByRole('button', { name: /AI Generator/ }));
    expect(onNavigate).toHaveBeenLastCalledWith('ai-generator');

    // AI shortcuts: 'Generate a design' opens the AI design generator itself.
    expect(screen.getByRole('link', { name: /Generate a design/ })).toHaveAttribute(
      'href',
      '/?tab=ai-generator#design-generator',
    );
    expect(screen.getByRole('link', { name: /Write a listing/ })).toHaveAttribute(
      'href',
      '/create-product?step=details',
    );
  });

  it('falls back to zeros and the empty-list text when the calls fail', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/dashboard/stats': () => json({ error: 'boom', code: 'INTERNAL_ERROR' }, 500),
        '/api/dashboard/recent-uploads?limit=3': () => json({ error: 'boom', code: 'INTERNAL_ERROR' }, 500),
      }),
    );
    renderWithProviders(<DashboardScreen onNavigate={() => {}} />);
    expect(await screen.findByText('No recent uploads found.')).toBeInTheDocument();
    expect(screen.getByText('Start by uploading your first design!')).toBeInTheDocument();
    const cards = await screen.findAllByTestId('stat-card');
    expect(cards[0]).toHaveTextContent('Total Products0');
    expect(cards[3]).toHaveTextContent('AI Credits0');
  });
});
