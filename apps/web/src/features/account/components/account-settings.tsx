import type { TMe, TMemberRole, TPasskey, TSession } from '@podforge/contract';
import { MEMBER_ROLE_LABELS, MEMBER_ROLES } from '@podforge/contract/plain';
import { useState } from 'react';
import { useMe } from '@/api/account/get-me';
import { useCreateInvite, useInvites, useMembers, useRemoveMember, useRevokeInvite } from '@/api/account/members';
import {
  passkeyErrorMessage,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useRenamePasskey,
  useSignInWithPasskey,
} from '@/api/account/passkeys';
import { useSessions, useSignOutSession } from '@/api/account/sessions';
import { Button } from '@/components/ui/button';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { ApiError } from '@/lib/api-client';
import { browserLabel, when } from './browser-label';

const errorText = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : passkeyErrorMessage(error);

function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p role="alert" className="mt-2 text-red-700">
      {errorText(error)}
    </p>
  );
}

function PasskeyRow({ passkey, onRemove, busy }: { passkey: TPasskey; onRemove: () => void; busy: boolean }) {
  const rename = useRenamePasskey();
  const [editing, setEditing] = useState<string | null>(null);
  if (editing !== null) {
    return (
      <li>
        <form
          className="flex gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate({ id: passkey.id, name: editing.trim() }, { onSuccess: () => setEditing(null) });
          }}
        >
          <input
            className={inputClass}
            aria-label={`New name for ${passkey.name}`}
            maxLength={60}
            value={editing}
            onChange={(event) => setEditing(event.target.value)}
          />
          <Button type="submit" size="sm" disabled={rename.isPending || !editing.trim()}>
            Save
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
            Cancel
          </Button>
        </form>
        <Problem error={rename.error} />
      </li>
    );
  }
  return (
    <li className="flex items-center justify-between gap-2">
      <span>
        <span className="font-medium">{passkey.name}</span>
        <span className="text-slate-500">
          {' '}
          · added {when(passkey.createdAt)}
          {passkey.lastUsedAt ? ` · last used ${when(passkey.lastUsedAt)}` : ''}
        </span>
      </span>
      <span className="flex gap-1">
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Rename passkey ${passkey.name}`}
          onClick={() => setEditing(passkey.name)}
        >
          Rename
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Remove passkey ${passkey.name}`}
          disabled={busy}
          onClick={onRemove}
        >
          Remove
        </Button>
      </span>
    </li>
  );
}

function Passkeys({ me, enabled }: { me: TMe; enabled: boolean }) {
  const passkeys = usePasskeys(enabled);
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState('');
  return (
    <section aria-labelledby="passkeys-title">
      <h3 id="passkeys-title" className="font-medium text-slate-900">
        Your passkeys
      </h3>
      <p className="mt-1 text-slate-600">
        A passkey opens this workspace from any browser or device: choose 'Sign in with a passkey' there.
      </p>
      {me.passkeys === 0 && (
        <p className="mt-1 text-amber-700" data-testid="no-passkey-warning">
          You have no passkey yet: if this browser loses its cookie, the workspace cannot be opened from it again.
        </p>
      )}
      <ul className="mt-2 space-y-1" aria-label="Passkeys">
        {passkeys.data?.map((passkey) => (
          <PasskeyRow
            key={passkey.id}
            passkey={passkey}
            onRemove={() => remove.mutate(passkey.id)}
            busy={remove.isPending}
          />
        ))}
      </ul>
      <form
        className="mt-2 flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          add.mutate(name.trim(), { onSuccess: () => setName('') });
        }}
      >
        <input
          className={inputClass}
          aria-label="Passkey name"
          placeholder="Name, e.g. Work laptop"
          maxLength={60}
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" disabled={add.isPending || !name.trim()}>
          {add.isPending ? 'Adding…' : 'Add a passkey'}
        </Button>
      </form>
      <Problem error={add.error ?? remove.error} />
    </section>
  );
}

function SessionRow({ session, hasPasskey }: { session: TSession; hasPasskey: boolean }) {
  const signOut = useSignOutSession();
  const [confirming, setConfirming] = useState(false);
  const lastWayIn = signOut.error instanceof ApiError && signOut.error.status === 409;
  const run = (force: boolean) => signOut.mutate({ id: session.id, current: session.current, force });
  const label = browserLabel(session.userAgent);
  return (
    <li className="rounded-md border border-slate-200 p-2">
      <div className="flex items-center justify-between gap-2">
        <span>
          <span className="font-medium">{label}</span>
          {session.current && <span className="ml-1 text-emerald-700">(this browser)</span>}
          <span className="block text-slate-500">
            Signed in {when(session.createdAt)} · last seen {when(session.lastSeenAt)}
          </span>
        </span>
        <Button
          variant="outline"
          size="sm"
          aria-label={`Sign out ${session.current ? 'this browser' : label}`}
          disabled={signOut.isPending}
          onClick={() => (hasPasskey ? run(false) : setConfirming(true))}
        >
          Sign out
        </Button>
      </div>
      {(confirming || lastWayIn) && (
        <div role="alert" className="mt-2 text-amber-800">
          <p>
            {lastWayIn
              ? errorText(signOut.error)
              : 'You have no passkey: once signed out, this browser cannot open the workspace again (only an invite from an owner would bring it back). Add a passkey first to be safe.'}
          </p>
          <div className="mt-1 flex gap-2">
            <Button variant="destructive" size="sm" onClick={() => run(lastWayIn)}>
              Sign out anyway
            </Button>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setConfirming(false);
                signOut.reset();
              }}
            >
              Keep signed in
            </Button>
          </div>
        </div>
      )}
      {!lastWayIn && <Problem error={signOut.error} />}
    </li>
  );
}

function Sessions({ me, enabled }: { me: TMe; enabled: boolean }) {
  const sessions = useSessions(enabled);
  return (
    <section aria-labelledby="sessions-title">
      <h3 id="sessions-title" className="font-medium text-slate-900">
        Signed-in browsers
      </h3>
      <ul className="mt-2 space-y-2" aria-label="Signed-in browsers">
        {sessions.data?.map((session) => (
          <SessionRow key={session.id} session={session} hasPasskey={me.passkeys > 0} />
        ))}
      </ul>
      <Problem error={sessions.error} />
    </section>
  );
}

function Invites() {
  const invites = useInvites();
  const create = useCreateInvite();
  const revoke = useRevokeInvite();
  const [role, setRole] = useState<TMemberRole>('editor');
  return (
    <div className="mt-3">
      <form
        className="flex items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(role);
        }}
      >
        <NativeSelect aria-label="Role" value={role} onChange={(event) => setRole(event.target.value as TMemberRole)}>
          {MEMBER_ROLES.map((r) => (
            <option key={r} value={r}>
              {MEMBER_ROLE_LABELS[r]}
            </option>
          ))}
        </NativeSelect>
        <Button type="submit" disabled={create.isPending}>
          Create invite link
        </Button>
      </form>
      {create.data && (
        <div className="mt-2 rounded-md bg-slate-50 p-2">
          <p className="text-slate-600">
            Send this link to the person joining as {MEMBER_ROLE_LABELS[create.data.role]}. It works once, until{' '}
            {when(create.data.expiresAt)}; it is shown only now.
          </p>
          <div className="flex items-center gap-1">
            <input className={inputClass} readOnly aria-label="Invite link" value={create.data.url} />
            <CopyButton value={create.data.url} label="Invite link" />
          </div>
        </div>
      )}
      {invites.data && invites.data.length > 0 && (
        <ul className="mt-2 space-y-1" aria-label="Open invites">
          {invites.data.map((invite) => (
            <li key={invite.id} className="flex items-center justify-between gap-2">
              <span className="text-slate-600">
                {MEMBER_ROLE_LABELS[invite.role]} invite · expires {when(invite.expiresAt)}
              </span>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Revoke ${MEMBER_ROLE_LABELS[invite.role]} invite`}
                onClick={() => revoke.mutate(invite.id)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Problem error={create.error ?? revoke.error} />
    </div>
  );
}

function Members({ me, enabled }: { me: TMe; enabled: boolean }) {
  const members = useMembers(enabled);
  const remove = useRemoveMember();
  const owner = me.role === 'owner';
  return (
    <section aria-labelledby="members-title">
      <h3 id="members-title" className="font-medium text-slate-900">
        Members
      </h3>
      <p className="mt-1 text-slate-600">
        Owners manage members and invites, editors change products and stores, viewers only look.
      </p>
      <p className="mt-1 text-slate-600" data-testid="your-role">
        You are {me.role === 'owner' ? 'an' : 'a'} {MEMBER_ROLE_LABELS[me.role]}
        {me.role === 'viewer' ? ': you can look at everything here, not change it.' : '.'}
      </p>
      <ul className="mt-2 space-y-1" aria-label="Members">
        {members.data?.map((member) => {
          const name = member.name ?? (member.you ? 'You' : 'Unnamed member');
          return (
            <li key={member.id} className="flex items-center justify-between gap-2">
              <span>
                <span className="font-medium">{name}</span>
                {member.you && member.name && <span className="text-slate-500"> (you)</span>}
                <span className="text-slate-500">
                  {' '}
                  · {MEMBER_ROLE_LABELS[member.role]} · last seen {when(member.lastSeenAt)}
                </span>
              </span>
              {owner && !member.you && (
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Remove ${name}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(member.id)}
                >
                  Remove
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <Problem error={members.error ?? remove.error} />
      {owner && enabled && <Invites />}
    </section>
  );
}

function OtherWorkspace({ me }: { me: TMe }) {
  const signIn = useSignInWithPasskey();
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="switch-title">
      <h3 id="switch-title" className="font-medium text-slate-900">
        Open another workspace
      </h3>
      <p className="mt-1 text-slate-600">
        Made a workspace in another browser? Sign in with its passkey to open it here; this browser then leaves this
        workspace.
        {me.passkeys === 0 && ' You have no passkey here, so this browser could not come back to this workspace.'}
      </p>
      <Button
        variant="outline"
        className="mt-2"
        disabled={signIn.isPending}
        onClick={() => (me.passkeys === 0 && !confirming ? setConfirming(true) : signIn.mutate())}
      >
        {confirming ? 'Leave this workspace and sign in' : 'Sign in with a passkey'}
      </Button>
      <Problem error={signIn.error} />
    </section>
  );
}

/** Settings' account part: passkeys, signed-in browsers, members and invites, and opening another workspace. */
export function AccountSettings({ enabled }: { enabled: boolean }) {
  const me = useMe(enabled);
  if (!me.data) return me.error ? <Problem error={me.error} /> : null;
  return (
    <>
      <Passkeys me={me.data} enabled={enabled} />
      <Sessions me={me.data} enabled={enabled} />
      <Members me={me.data} enabled={enabled} />
      <OtherWorkspace me={me.data} />
    </>
  );
}
