import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PricingEditor, type PricingRow } from './pricing-editor';

const shopifyFee = { percent: 2.9, fixed: 0.3 };

function Harness({ initial }: { initial: PricingRow[] }) {
  const [rows, setRows] = useState(initial);
  return (
    <PricingEditor
      rows={rows}
      fee={shopifyFee}
      platformLabel="Shopify"
      targetMargin={30}
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
});
