import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storeIntegration } from '@/test/integration-fixtures';
import { StoreSelect } from './store-select';

describe('StoreSelect', () => {
  it('names each store with its platform and reports the one chosen', () => {
    const onChange = vi.fn();
    const stores = [storeIntegration(), storeIntegration({ id: 's2', platform: 'woocommerce', name: 'Dog Store' })];
    render(<StoreSelect stores={stores} value="s1" onChange={onChange} />);
    const select = screen.getByLabelText('Store');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Cat Shop (Shopify)',
      'Dog Store (WooCommerce)',
    ]);
    fireEvent.change(select, { target: { value: 's2' } });
    expect(onChange).toHaveBeenCalledWith('s2');
  });
});
