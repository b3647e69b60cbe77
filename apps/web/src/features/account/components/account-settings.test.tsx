import type { TMe, TMember, TPasskey, TSession } from '@podforge/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRequest, fakeFetch, json, renderWithProviders } from '@/test/render';
import { AccountSettings } from './account-settings';

vi.mock('@simplewebauthn/browser', () => ({
  startRegistration: vi.fn(async () => ({ id: 'cred', rawId: 'cred', type: 'public-key', response: {} })),
  startAuthentication: vi.fn(async () => ({ id: 'cred', rawId: 'cred', type: 'public-key', response: {} })),
}));

const me = (over: Partial<TMe> = {}): TMe => ({
  memberId: 'm1',
  workspaceId: 'w1',
  role: 'owner',
  name: null,
  passkeys: 0,
  ...over,
});
const laptop: TPasskey = { id: 'p1', name: 'Laptop', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null };
const here: TSession = {
  id: 's1',
  current: true,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastSeenAt: '2026-11-27T10:00:00.000Z',
};
const phone: TSession = {
  ...here,
  id: 's2',
  current: false,
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile Safari/604.1',
};
const members: TMember[] = [
  {
    id: 'm1',
    name: null,
    role: 'owner',
    you: true,
    passkeys: 0,
    createdAt: here.createdAt,
    lastSeenAt: here.lastSeenAt,
  },
  {
    id: 'm2',
    name: 'Sam',
    role: 'viewer',
    you: false,
    passkeys: 1,
    createdAt: here.createdAt,
    lastSeenAt: here.lastSeenAt,
  },
];

function setup(account: TMe, routes: Record<string, (request: FakeRequest) => Response> = {}) {
  const fetch = fakeFetch({
    'GET /api/auth/me': () => json(account),
    'GET /api/auth/passkeys': () => json(account.passkeys ? [laptop] : []),
    'GET /api/auth/sessions': () => json([here, phone]),
    'GET /api/workspace/members': () => json(members),
    'GET /api/workspace/invites': () => json([]),
    ...routes,
  });
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(<AccountSettings enabled />);
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('AccountSettings, passkeys', () => {
  it('warns without a passkey, and adds a named one through the browser', async () => {
    const fetch = setup(me(), {
      'POST /api/auth/passkeys/registration-options': () => json({ challenge: 'c' }),
      'POST /api/auth/passkeys/registration-verify': () => json(laptop, 201),
    });
    expect(await screen.findByTestId('no-passkey-warning')).toHaveTextContent('You have no passkey yet');
    const add = screen.getByRole('button', { name: 'Add a passkey' });
    expect(add).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Passkey name'), { target: { value: 'Laptop' } });
    fireEvent.click(add);
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.url.pathname === '/api/auth/passkeys/registration-verify')?.body).toEqual({
        name: 'Laptop',
        response: { id: 'cred', rawId: 'cred', type: 'public-key', response: {} },
      }),
    );
  });

  it('renames a passkey', async () => {
    const fetch = setup(me({ passkeys: 1 }), {
      'PATCH /api/auth/passkeys/p1': () => json({ ...laptop, name: 'Work laptop' }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Rename passkey Laptop' }));
    fireEvent.change(screen.getByLabelText('New name for Laptop'), { target: { value: 'Work laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Work laptop' }));
  });

  it('signing in to another workspace without a passkey here asks first', async () => {
    const fetch = setup(me(), {
      'POST /api/auth/passkeys/login-options': () => json({ challenge: 'c' }),
      'POST /api/auth/passkeys/login': () => json(me({ workspaceId: 'w2' })),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Leave this workspace and sign in' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.url.pathname === '/api/auth/passkeys/login')).toBe(true));
  });

  it('lists passkeys by name and removes one', async () => {
    const fetch = setup(me({ passkeys: 1 }), {
      'DELETE /api/auth/passkeys/p1': () => new Response(null, { status: 204 }),
    });
    const list = await screen.findByRole('list', { name: 'Passkeys' });
    expect(await within(list).findByText('Laptop')).toBeInTheDocument();
    expect(screen.queryByTestId('no-passkey-warning')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove passkey Laptop' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(true));
  });
});

describe('AccountSettings, signed-in browsers', () => {
  it('lists browsers; without a passkey, signing one out first warns it could not come back', async () => {
    const fetch = setup(me(), { 'DELETE /api/auth/sessions/s2': () => new Response(null, { status: 204 }) });
    const list = await screen.findByRole('list', { name: 'Signed-in browsers' });
    expect(await within(list).findByText('Chrome on Linux')).toBeInTheDocument();
    expect(within(list).getByText('(this browser)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out Safari on iOS' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot open the workspace again');
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out anyway' }));
    await waitFor(() =>
      expect(fetch.calls.find((c) => c.method === 'DELETE')?.url.pathname).toBe('/api/auth/sessions/s2'),
    );
  });

  it("shows the server's refusal for the workspace's last way in, and signs out with force only when asked", async () => {
    const fetch = setup(me({ passkeys: 1 }), {
      'DELETE /api/auth/sessions/s1': () =>
        json({ error: 'signing it out would leave the workspace unreachable', code: 'CONFLICT' }, 409),
      'DELETE /api/auth/sessions/s1?force=true': () => new Response(null, { status: 204 }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out this browser' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('would leave the workspace unreachable');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out anyway' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.url.search === '?force=true')).toBe(true));
  });
});

describe('AccountSettings, members and invites', () => {
  it('an owner sees roles, removes a member and makes an invite link', async () => {
    const fetch = setup(me(), {
      'DELETE /api/workspace/members/m2': () => new Response(null, { status: 204 }),
      'POST /api/workspace/invites': () =>
        json(
          {
            id: 'i1',
            role: 'viewer',
            createdAt: here.createdAt,
            expiresAt: '2026-12-04T10:00:00.000Z',
            url: 'http://localhost/invite/abc',
          },
          201,
        ),
    });
    const list = await screen.findByRole('list', { name: 'Members' });
    expect(await within(list).findByText('Sam')).toBeInTheDocument();
    expect(list).toHaveTextContent('Viewer');
    expect(screen.queryByRole('button', { name: 'Remove You' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove Sam' }));
    await waitFor(() => expect(fetch.calls.some((c) => c.url.pathname === '/api/workspace/members/m2')).toBe(true));
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'viewer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create invite link' }));
    expect(await screen.findByLabelText('Invite link')).toHaveValue('http://localhost/invite/abc');
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({ role: 'viewer' });
  });

  it('a viewer sees members but no remove buttons and no invites', async () => {
    const fetch = setup(me({ role: 'viewer', memberId: 'm2' }));
    expect(await screen.findByText('Sam')).toBeInTheDocument();
    expect(screen.getByTestId('your-role')).toHaveTextContent('You are a Viewer: you can look at everything here');
    expect(screen.queryByRole('button', { name: /^Remove / })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create invite link' })).not.toBeInTheDocument();
    expect(fetch.calls.some((c) => c.url.pathname === '/api/workspace/invites')).toBe(false);
  });
});
