import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { catalogTee } from '@/test/catalog-fixtures';
import { AT_LEAST_ONE_VARIANT, VariantMatrix } from './variant-matrix';

function Harness({ initial }: { initial: number[] }) {
  const [ids, setIds] = useState(initial);
  return (
    <>
      <VariantMatrix variants={catalogTee.variants} enabledIds={ids} onChange={setIds} />
      <output data-testid="ids">{ids.join(',')}</output>
    </>
  );
}
const ids = () => screen.getByTestId('ids').textContent;
const cell = (name: string) => screen.getByRole('button', { name });

describe('VariantMatrix', () => {
  it('shows colours with their swatch by sizes, each cell with its base cost; a missing combination is not offered', () => {
    render(<Harness initial={[4016]} />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Colour', 'S', 'M', 'XL']);
    const white = screen.getByRole('button', { name: 'All White' });
    expect(white.querySelector('span[aria-hidden]')).toHaveStyle({ backgroundColor: '#ffffff' });
    expect(cell('White / S')).toHaveTextContent('$9.25');
    expect(cell('Black / XL')).toHaveTextContent('$11.50');
    expect(screen.queryByRole('button', { name: 'White / XL' })).toBeNull();
    expect(cell('Black / S')).toHaveAttribute('aria-pressed', 'true');
    expect(cell('White / S')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('matrix-summary')).toHaveTextContent('1 of 5 variants enabled');
  });

  it('toggles single variants, whole colours and whole sizes, in catalogue order', () => {
    render(<Harness initial={[4016]} />);
    fireEvent.click(cell('White / M'));
    expect(ids()).toBe('4012,4016');
    fireEvent.click(screen.getByRole('button', { name: 'All Black' }));
    expect(ids()).toBe('4012,4016,4017,4018');
    expect(screen.getByRole('button', { name: 'All Black' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'All M' }));
    expect(ids()).toBe('4016,4018');
    fireEvent.click(screen.getByRole('button', { name: 'All S' }));
    expect(ids()).toBe('4011,4016,4018');
    // A colour only partly on is switched fully on first, then off.
    fireEvent.click(screen.getByRole('button', { name: 'All Black' }));
    expect(ids()).toBe('4011,4016,4017,4018');
    fireEvent.click(screen.getByRole('button', { name: 'All Black' }));
    expect(ids()).toBe('4011');
  });

  it('keeps at least one variant enabled', () => {
    render(<Harness initial={[4011]} />);
    fireEvent.click(cell('White / S'));
    expect(screen.getByRole('alert')).toHaveTextContent(AT_LEAST_ONE_VARIANT);
    expect(ids()).toBe('4011');
    fireEvent.click(screen.getByRole('button', { name: 'All White' }));
    expect(ids()).toBe('4011,4012');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
