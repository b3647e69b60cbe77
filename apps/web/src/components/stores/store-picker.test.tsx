import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storeIntegration } from '@/test/integration-fixtures';
import { StorePicker } from './store-picker';

const store = (id: string, platform: string, name: string) => storeIntegration({ id, platform, storeName: name, name });

const stores = [store('s1', 'shopify', 'Cat Shop'), store('s2', 'woocommerce', 'Dog Store')];

describe('StorePicker', () => {
  it("lists each store with its platform's name from the contract, checked when selected", () => {
    render(<StorePicker stores={stores} selected={['s2']} onChange={() => {}} />);
    expect(screen.getByRole('checkbox', { name: /Cat Shop/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Dog Store/ })).toBeChecked();
    expect(screen.getByText('Shopify')).toBeInTheDocument();
    expect(screen.getByText('WooCommerce')).toBeInTheDocument();
  });

  it('adds a store on check and removes it on uncheck, and shows the items it is given under the stores', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(
      <StorePicker stores={stores} selected={[]} onChange={onChange}>
        <li>With no store selected, the product is only saved.</li>
      </StorePicker>,
    );
    expect(screen.getByText('With no store selected, the product is only saved.')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Dog Store/ }));
    expect(onChange).toHaveBeenLastCalledWith(['s2']);
    rerender(<StorePicker stores={stores} selected={['s1', 's2']} onChange={onChange} />);
    await user.click(screen.getByRole('checkbox', { name: /Cat Shop/ }));
    expect(onChange).toHaveBeenLastCalledWith(['s2']);
  });
});
