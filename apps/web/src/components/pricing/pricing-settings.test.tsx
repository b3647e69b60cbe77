import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settings } from '@/test/catalog-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { PricingSettings } from './pricing-settings';

afterEach(() => vi.unstubAllGlobals());

describe('PricingSettings', () => {
  it('reads the workspace settings, checks them and saves target margin and store fees with PATCH', async () => {
    const fetch = fakeFetch({
      'GET /api/settings': () => json(settings),
      'PATCH /api/settings': ({ body }) => json(body),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<PricingSettings />);
    const margin = await screen.findByLabelText('Target margin (%)');
    expect(margin).toHaveValue('30');
    expect(screen.getByLabelText('Etsy fee %')).toHaveValue('9.5');
    expect(screen.getByLabelText('Etsy fixed fee')).toHaveValue('0.45');

    await user.clear(margin);
    await user.type(margin, '95');
    await user.click(screen.getByRole('button', { name: 'Save pricing' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Target margin must be a number from 0 to 90.');
    await user.clear(margin);
    await user.type(margin, '35');
    await user.clear(screen.getByLabelText('Shopify fee %'));
    await user.click(screen.getByRole('button', { name: 'Save pricing' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Shopify fee % must be a number from 0 to 50.');
    expect(fetch.calls.some((c) => c.method === 'PATCH')).toBe(false);

    await user.type(screen.getByLabelText('Shopify fee %'), '2.4');
    await user.click(screen.getByRole('button', { name: 'Save pricing' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      targetMargin: 35,
      storeFees: { ...settings.storeFees, shopify: { percent: 2.4, fixed: 0.3 } },
    });
  });

  it("shows the server's reason when the settings cannot be read", async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/settings': () => json({ error: 'Not Found' }, 404) }));
    renderWithProviders(<PricingSettings />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Your pricing settings could not be loaded');
  });
});
