import { describe, expect, it } from 'vitest';
import { formatDate, formatPrice } from './product-format';

describe('formatPrice', () => {
  it('writes US dollars as Intl.NumberFormat en-US does', () => {
    const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
    for (const price of [0, 0.5, 1, 9.99, 24.5, 25, 999.99, 1000, 1234.5, 12345.67, 100000, 1234567.89, -3.2]) {
      expect(formatPrice(price)).toBe(usd.format(price));
    }
  });
});

describe('formatDate', () => {
  it('writes the local date as toLocaleDateString does', () => {
    for (const iso of ['2026-11-23T15:00:00.000Z', '2024-02-29T00:30:00Z', '1999-12-31T23:59:59Z', 'not a date']) {
      expect(formatDate(iso)).toBe(new Date(iso).toLocaleDateString());
    }
  });
});
