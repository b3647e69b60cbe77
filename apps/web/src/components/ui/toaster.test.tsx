import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Toaster } from './toaster';
import { TOAST_DURATION, toast } from './use-toast';

describe('Toaster', () => {
  it('shows toasts under the header, away from the step buttons at the bottom, and lets clicks through its empty area (#28)', () => {
    render(<Toaster />);
    const viewport = screen.getByTestId('toast-viewport');
    expect(viewport).toHaveClass('pointer-events-none', 'top-16');
    expect(viewport.className).not.toMatch(/bottom-0/);
  });

  it('shows one toast at a time: a new toast replaces the visible one', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Upload Complete', description: 'a.png has been uploaded successfully.' });
    });
    expect(await screen.findByText('Upload Complete')).toBeInTheDocument();
    act(() => {
      toast({
        title: 'Upload Failed',
        description: 'Failed to upload b.png . Please try again.',
        variant: 'destructive',
      });
    });
    expect(await screen.findByText('Upload Failed')).toBeInTheDocument();
    expect(screen.queryByText('Upload Complete')).not.toBeInTheDocument();
  });

  it('closes by itself after 5000 ms', () => {
    vi.useFakeTimers();
    try {
      render(<Toaster />);
      act(() => {
        toast({ title: 'Schedule Cancelled' });
      });
      act(() => {
        vi.advanceTimersByTime(TOAST_DURATION - 100);
      });
      expect(screen.getByText('Schedule Cancelled').closest('li')).toHaveAttribute('data-state', 'open');
      act(() => {
        vi.advanceTimersByTime(200);
      });
      expect(screen.queryByText('Schedule Cancelled')?.closest('li')?.getAttribute('data-state') ?? 'closed').toBe(
        'closed',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('has a notifications region labelled with its F8 hotkey', () => {
    render(<Toaster />);
    expect(screen.getByRole('region', { name: /F8/ })).toBeInTheDocument();
  });
});
