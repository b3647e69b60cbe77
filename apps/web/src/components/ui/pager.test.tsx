import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Pager, pagerItems } from './pager';

describe('pagerItems', () => {
  it('lists every page up to 7', () => {
    expect(pagerItems(1, 1)).toEqual([1]);
    expect(pagerItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('keeps first, last and the current page with its neighbours, with an ellipsis per hidden run', () => {
    expect(pagerItems(1, 13)).toEqual([1, 2, 3, 4, 5, 'gap-end', 13]);
    expect(pagerItems(4, 13)).toEqual([1, 2, 3, 4, 5, 'gap-end', 13]);
    expect(pagerItems(5, 13)).toEqual([1, 'gap-start', 4, 5, 6, 'gap-end', 13]);
    expect(pagerItems(10, 13)).toEqual([1, 'gap-start', 9, 10, 11, 12, 13]);
    expect(pagerItems(13, 13)).toEqual([1, 'gap-start', 9, 10, 11, 12, 13]);
  });
});

describe('Pager', () => {
  it('marks the current page, disables previous on the first page and reports clicks', async () => {
    const onPageChange = vi.fn();
    const user = userEvent.setup();
    render(<Pager page={1} totalPages={13} onPageChange={onPageChange} />);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Page 6' })).not.toBeInTheDocument();
    expect(screen.getByText('…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 13' }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPageChange.mock.calls).toEqual([[13], [2]]);
  });
});
