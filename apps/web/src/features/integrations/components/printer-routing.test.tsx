import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { PrinterRouting } from './printer-routing';

afterEach(() => vi.unstubAllGlobals());

describe('PrinterRouting', () => {
  it('saves the routing rule: cheapest, then always one named printer', async () => {
    let rule: object = { mode: 'first', provider: null };
    const fetch = fakeFetch({
      'GET /api/routing': () => json(rule),
      'PUT /api/routing': (request) => {
        rule = request.body as object;
        return json(rule);
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<PrinterRouting />);
    const mode = await screen.findByLabelText('Send each order to');
    await vi.waitFor(() => expect(mode).toBeEnabled());
    await user.selectOptions(mode, 'cheapest');
    await vi.waitFor(() => expect(rule).toEqual({ mode: 'cheapest', provider: null }));
    await user.selectOptions(screen.getByLabelText('Send each order to'), 'fixed');
    await user.selectOptions(await screen.findByLabelText('Printer'), 'gelato');
    await vi.waitFor(() => expect(rule).toEqual({ mode: 'fixed', provider: 'gelato' }));
  });
});
