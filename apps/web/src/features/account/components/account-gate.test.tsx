import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { AccountGate } from './account-gate';

const startAuthentication = vi.fn(async () => ({ id: 'cred', rawId: 'cred', type: 'public-key', response: {} }));
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication, startRegistration: vi.fn() }));

const owner = { memberId: 'm', workspaceId: 'w', role: 'owner', name: null, passkeys: 1 };

afterEach(() => vi.unstubAllGlobals());

describe('AccountGate', () => {
  it('shows the app to a browser with a session', async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/auth/me': () => json(owner) }));
    renderWithProviders(<AccountGate>The app</AccountGate>);
    expect(await screen.findByText('The app')).toBeInTheDocument();
  });

  it('offers a passkey or a new workspace to a browser that lost its session, and opens the one chosen', async () => {
    let signedIn = false;
    const fetch = fakeFetch({
      'GET /api/auth/me': () =>
        signedIn ? json(owner) : json({ error: 'This browser is not signed in', code: 'NO_SESSION' }, 401),
      'POST /api/auth/passkeys/login-options': () => json({ challenge: 'c' }),
      'POST /api/auth/passkeys/login': () => {
        signedIn = true;
        return json(owner);
      },
    });
    vi.stubGlobal('fetch', fetch);
    renderWithProviders(<AccountGate>The app</AccountGate>);
    expect(await screen.findByRole('heading', { name: 'This browser is signed out' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start a new workspace' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('The app')).toBeInTheDocument();
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'c' } });
  });

  it('starts a new workspace when asked, and says why one could not be made', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/auth/me': () => json({ error: 'signed out', code: 'NO_SESSION' }, 401),
        'POST /api/auth/new-workspace': () =>
          json({ error: 'Too many new workspaces from this address', code: 'RATE_LIMITED' }, 429),
      }),
    );
    renderWithProviders(<AccountGate>The app</AccountGate>);
    fireEvent.click(await screen.findByRole('button', { name: 'Start a new workspace' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many new workspaces');
  });
});

describe('AccountGate, a session lost while the app is open', () => {
  it('any call answered NO_SESSION brings the sign-in choice', async () => {
    const { useQuery } = await import('@tanstack/react-query');
    const { api } = await import('@/lib/api-client');
    let signedOut = false;
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/auth/me': () => (signedOut ? json({ error: 'signed out', code: 'NO_SESSION' }, 401) : json(owner)),
        'GET /api/products': () => json({ error: 'signed out', code: 'NO_SESSION' }, 401),
      }),
    );
    function Screen() {
      const products = useQuery({ queryKey: ['products'], queryFn: () => api.get('/api/products') });
      return <p>{products.isError ? 'failed' : 'The app'}</p>;
    }
    renderWithProviders(
      <AccountGate>
        <Screen />
      </AccountGate>,
    );
    signedOut = true;
    expect(await screen.findByRole('heading', { name: 'This browser is signed out' })).toBeInTheDocument();
  });
});
