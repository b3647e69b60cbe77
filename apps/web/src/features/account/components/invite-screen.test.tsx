import type { TInviteInfo } from '@podforge/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { InviteScreen } from './invite-screen';

const info = (over: Partial<TInviteInfo> = {}): TInviteInfo => ({
  role: 'editor',
  expiresAt: '2026-12-04T10:00:00.000Z',
  alreadyMember: false,
  leaves: null,
  ...over,
});

function open(routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch(routes);
  vi.stubGlobal('fetch', fetch);
  renderWithProviders(
    <Routes>
      <Route path="/invite/:token" element={<InviteScreen />} />
      <Route path="/" element={<p>Dashboard</p>} />
    </Routes>,
    { path: '/invite/tok123' },
  );
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('InviteScreen', () => {
  it('asks before joining, then joins with the name given and opens the app', async () => {
    const fetch = open({
      'GET /api/workspace/invites/tok123': () => json(info()),
      'POST /api/workspace/invites/tok123/accept': () =>
        json({ memberId: 'm', workspaceId: 'w', role: 'editor', name: 'Sam', passkeys: 0 }, 201),
    });
    expect(await screen.findByText(/You are invited to join as/)).toHaveTextContent('Editor');
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.change(screen.getByLabelText(/Your name/), { target: { value: 'Sam' } });
    fireEvent.click(screen.getByRole('button', { name: 'Join workspace' }));
    expect(await screen.findByText('Dashboard')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Sam' });
  });

  it('warns that joining leaves another workspace this browser could not reach again', async () => {
    open({ 'GET /api/workspace/invites/tok123': () => json(info({ role: 'viewer', leaves: { hasPasskey: false } })) });
    expect(await screen.findByRole('note')).toHaveTextContent('that workspace would be unreachable from this browser');
    expect(screen.getByText(/You are invited/)).toHaveTextContent('Viewer (you can look at everything, not change it)');
  });

  it('shows why a link no longer works, with no button', async () => {
    open({
      'GET /api/workspace/invites/tok123': () =>
        json({ error: 'This invite link expired on 2026-11-20: ask for a new one.', code: 'NOT_FOUND' }, 410),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('expired on 2026-11-20');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Join workspace' })).not.toBeInTheDocument());
  });
});
