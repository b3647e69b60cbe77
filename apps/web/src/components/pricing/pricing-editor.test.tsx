import { saleEconomics } from '@podforge/contract/plain';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PricingEditor, type PricingRow } from './pricing-editor';
import type { ShippingLine } from './shipping-line';

const shopifyFee = { percent: 2.9, fixed: 0.3 };
const country = { country: 'US', onCountryChange: () => {} };
/** A printer that ships for free: the figures below are the price, the base cost and the fee alone. */
const freeShipping: ShippingLine = { ...country, state: 'quoted', amount: 0, currency: 'USD', printer: 'Printful' };

function Harness({ initial, shipping = freeShipping }: { initial: PricingRow[]; shipping?: ShippingLine }) {
  const [rows, setRows] = useState(initial);
  return (
    <PricingEditor
      rows={rows}
      fee={shopifyFee}
      platformLabel="Shopify"
      targetMargin={30}
      shipping={shipping}
      onPriceChange={(id, price) => setRows((rs) => rs.map((r) => (r.id === id ? { ...r, price } : r)))}
      onPricesChange={(prices) => setRows((rs) => rs.map((r) => ({ ...r, price: prices[r.id] ?? r.price })))}
    />
  );
}

const rows: PricingRow[] = [
  { id: '4016', label: 'Black / S', colorHex: '#0b0b0b', baseCost: 9.95, price: 24.99 },
  { id: '4017', label: 'Black / M', colorHex: '#0b0b0b', baseCost: 9.95, price: 13.5 },
  { id: '4018', label: 'Black / XL', colorHex: '#0b0b0b', baseCost: 11.5, price: 11 },
];
const row = (i: number) => screen.getAllByTestId('pricing-row')[i] as HTMLElement;

describe('PricingEditor', () => {
  it('shows base cost, price, store fee, profit and margin with 2 decimals, and warns below the target margin', () => {
    render(<Harness initial={rows} />);
    const first = within(row(0));
    expect(first.getByTestId('base-cost')).toHaveTextContent('$9.95');
    expect(first.getByLabelText('Price of Black / S')).toHaveValue('24.99');
    // 2.9% of 24.99 is 0.72, plus 0.30.
    expect(first.getByTestId('store-fee')).toHaveTextContent('$1.02');
    expect(first.getByTestId('profit')).toHaveTextContent('$14.02');
    expect(first.getByTestId('margin')).toHaveTextContent('56.1%');
    expect(first.queryByTestId('margin-warning')).toBeNull();

    // 13.50 - 9.95 - 0.69 = 2.86, 21.2%: a sale that earns, but under the 30% target.
    const second = within(row(1));
    expect(second.getByTestId('profit')).toHaveTextContent('$2.86');
    expect(second.getByTestId('margin')).toHaveTextContent('21.2%');
    expect(second.getByTestId('margin-warning')).toHaveTextContent('Below your 30% target margin.');
  });

  it('flags a price of 0 or below the base cost in red, as the server would refuse it', () => {
    render(<Harness initial={rows} />);
    const third = within(row(2));
    expect(third.getByTestId('price-problem')).toHaveTextContent(
      'Price is below its base cost of 11.50: stores would refuse it.',
    );
    expect(third.getByLabelText('Price of Black / XL')).toHaveAttribute('aria-invalid', 'true');
    expect(third.getByTestId('profit')).toHaveTextContent('-$1.12');

    fireEvent.change(within(row(0)).getByLabelText('Price of Black / S'), { target: { value: '0' } });
    expect(within(row(0)).getByTestId('price-problem')).toHaveTextContent('Price must be above 0');
    fireEvent.change(within(row(0)).getByLabelText('Price of Black / S'), { target: { value: 'abc' } });
    expect(within(row(0)).getByTestId('price-problem')).toHaveTextContent('Price must be above 0');
    fireEvent.change(within(row(0)).getByLabelText('Price of Black / S'), { target: { value: '19.5' } });
    expect(within(row(0)).queryByTestId('price-problem')).toBeNull();
    fireEvent.blur(within(row(0)).getByLabelText('Price of Black / S'));
    expect(within(row(0)).getByLabelText('Price of Black / S')).toHaveValue('19.50');
  });

  it('sets every price from a margin, rounded up to .99, clearing the warnings', () => {
    render(<Harness initial={rows} />);
    fireEvent.change(screen.getByLabelText('Margin (%)'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    // (9.95 + 0.30) / (1 - 0.029 - 0.40) = 17.95 -> 17.99; (11.50 + 0.30) / 0.571 = 20.67 -> 20.99.
    expect(within(row(0)).getByLabelText('Price of Black / S')).toHaveValue('17.99');
    expect(within(row(1)).getByLabelText('Price of Black / M')).toHaveValue('17.99');
    expect(within(row(2)).getByLabelText('Price of Black / XL')).toHaveValue('20.99');
    expect(screen.queryByTestId('margin-warning')).toBeNull();
    expect(screen.queryByTestId('price-problem')).toBeNull();
    for (const margin of screen.getAllByTestId('margin'))
      expect(Number.parseFloat(margin.textContent ?? '')).toBeGreaterThanOrEqual(40);

    fireEvent.change(screen.getByLabelText('Margin (%)'), { target: { value: '98' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    expect(screen.getByRole('alert')).toHaveTextContent('leave nothing of the price');
    fireEvent.change(screen.getByLabelText('Margin (%)'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a margin from 0 to 99 percent.');
  });

  it('shows no profit or margin for a variant whose base cost is unknown', () => {
    render(<Harness initial={[{ id: 'Small', label: 'Small', baseCost: null, price: 25 }]} />);
    expect(screen.getByTestId('base-cost')).toHaveTextContent('—');
    expect(screen.getByTestId('profit')).toHaveTextContent('—');
    expect(screen.getByTestId('margin')).toHaveTextContent('—');
    expect(screen.queryByTestId('margin-warning')).toBeNull();
  });

  it('subtracts the printer’s quoted shipping, so its promise equals the order’s profit for the same sale (#28)', () => {
    const quoted: ShippingLine = {
      ...country,
      state: 'quoted',
      amount: 4.75,
      currency: 'USD',
      printer: 'Printful Sandbox',
    };
    render(<Harness initial={rows} shipping={quoted} />);
    expect(screen.getByTestId('shipping-note')).toHaveTextContent("$4.75 for one item, Printful Sandbox's quote");
    const first = within(row(0));
    expect(first.getByTestId('shipping')).toHaveTextContent('$4.75');
    expect(first.getByTestId('store-fee')).toHaveTextContent('$1.02');
    // 24.99 - 9.95 - 4.75 - 1.02 = 9.27: what Orders shows when that sale's printer bill is 9.95 + 4.75.
    expect(first.getByTestId('profit')).toHaveTextContent('$9.27');
    const order = saleEconomics(
      { revenue: 24.99, cost: 9.95 + 4.75, currency: 'USD', costCurrency: 'USD' },
      shopifyFee,
    );
    expect(order.profit).toBe(9.27);
    expect(first.getByTestId('margin')).toHaveTextContent('37.1%');

    // Prices from a margin keep it after the shipping too: (9.95 + 4.75 + 0.30) / 0.571 = 26.27 -> 26.99.
    fireEvent.change(screen.getByLabelText('Margin (%)'), { target: { value: '40' } });
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    expect(first.getByLabelText('Price of Black / S')).toHaveValue('26.99');
  });

  it('promises no profit while the shipping is not quoted, and says why', () => {
    render(
      <Harness initial={rows} shipping={{ ...country, state: 'unknown', reason: 'Printful: No quote: timeout' }} />,
    );
    expect(screen.getByTestId('shipping-note')).toHaveTextContent('No shipping quote (Printful: No quote: timeout)');
    expect(within(row(0)).getByTestId('shipping')).toHaveTextContent('—');
    expect(within(row(0)).getByTestId('profit')).toHaveTextContent('—');
    expect(within(row(0)).getByTestId('margin')).toHaveTextContent('—');
    fireEvent.click(screen.getByRole('button', { name: 'Set prices from margin' }));
    expect(screen.getByRole('alert')).toHaveTextContent('need the shipping quote first');
  });
});
