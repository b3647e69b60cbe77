import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConnectionBadge, StoreStatusBadges } from './integration-card';

describe('ConnectionBadge', () => {
  it('says Connected while one store is connected', () => {
    render(<ConnectionBadge stores={[{ isConnected: false }, { isConnected: true }]} isError={false} />);
    expect(screen.getByText('Connected')).toHaveClass('bg-green-100');
  });

  it('says Not connected with no connected store, and Status unknown when the list could not be read', () => {
    const { rerender } = render(<ConnectionBadge stores={[{ isConnected: false }]} isError={false} />);
    expect(screen.getByText('Not connected')).toBeInTheDocument();
    rerender(<ConnectionBadge stores={[]} isError />);
    expect(screen.getByText('Status unknown')).toBeInTheDocument();
  });
});

describe('StoreStatusBadges', () => {
  it('names the state a store is in and marks a sandbox store', () => {
    const { rerender } = render(
      <StoreStatusBadges store={{ isConnected: true, status: 'connected', sandbox: true }} />,
    );
    expect(screen.getByText('Connected')).toBeInTheDocument();
    expect(screen.getByText('Sandbox')).toBeInTheDocument();
    rerender(<StoreStatusBadges store={{ isConnected: false, status: 'pending', sandbox: false }} />);
    expect(screen.getByText('Setup needed')).toHaveClass('bg-amber-100');
    expect(screen.queryByText('Sandbox')).not.toBeInTheDocument();
    rerender(<StoreStatusBadges store={{ isConnected: false, status: 'error', sandbox: false }} />);
    expect(screen.getByText('Reconnect needed')).toHaveClass('bg-red-100');
  });
});
