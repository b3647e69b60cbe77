import { describe, expect, it } from 'vitest';
import { formatPrice } from './product-format';

describe('formatPrice', () => {
  it('writes US dollars as Intl.NumberFormat en-US does', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const price of [0, 0.5, 1, 9.99, 24.5, 25, 999.99, 1000, 1234.5, 12345.67, 100000, 1234567.89, -3.2]) {
      expect(formatPrice(price)).toBe(usd.format(price));
    }
  });
});
