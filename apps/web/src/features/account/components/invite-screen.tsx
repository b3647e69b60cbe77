import { MEMBER_ROLE_LABELS } from '@podforge/contract/plain';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAcceptInvite, useInviteInfo } from '@/api/account/members';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { when } from './browser-label';

const errorText = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error);

/** `/invite/:token`: says what joining means, and joins only when the button is pressed. */
export function InviteScreen() {
  const { token = '' } = useParams();
  const info = useInviteInfo(token);
  const accept = useAcceptInvite(token);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const invite = info.data;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 text-sm shadow-sm">
        <h1 className="text-xl font-semibold">Join a Podforge workspace</h1>
        {info.isPending && <p className="mt-2 text-slate-500">Loading…</p>}
        {info.isError && (
          <p role="alert" className="mt-2 text-red-700">
            {errorText(info.error)}
          </p>
        )}
        {invite?.alreadyMember && (
          <p className="mt-2 text-slate-600">
            This browser is already in that workspace.{' '}
            <Link to="/" className="font-medium text-brand-600 hover:underline">
              Open it
            </Link>
          </p>
        )}
        {invite && !invite.alreadyMember && (
          <form
            className="mt-2 space-y-3"
            onSubmit={(event) => {
              event.preventDefault();
              accept.mutate(name.trim() ? { name: name.trim() } : {}, { onSuccess: () => navigate('/') });
            }}
          >
            <p className="text-slate-600">
              You are invited to join as <strong>{MEMBER_ROLE_LABELS[invite.role]}</strong>
              {invite.role === 'viewer' ? ' (you can look at everything, not change it)' : ''}. The link works until{' '}
              {when(invite.expiresAt)}.
            </p>
            {invite.leaves && (
              <p role="note" className="text-amber-800">
                This browser is signed in to another workspace; joining signs it out of that one.
                {invite.leaves.hasPasskey
                  ? ' Your passkey still opens it.'
                  : ' You have no passkey there, so that workspace would be unreachable from this browser.'}
              </p>
            )}
            <label className="block">
              <span className="text-slate-700">Your name, shown to the team (optional)</span>
              <input
                className={`${inputClass} mt-1`}
                maxLength={60}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            </label>
            <Button type="submit" disabled={accept.isPending}>
              {accept.isPending ? 'Joining…' : 'Join workspace'}
            </Button>
            {accept.isError && (
              <p role="alert" className="text-red-700">
                {errorText(accept.error)}
              </p>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
