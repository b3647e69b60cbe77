import type { ReactNode } from 'react';
import { isNoSession, useMe } from '@/api/account/get-me';
import { passkeyErrorMessage, useSignInWithPasskey } from '@/api/account/passkeys';
import { useStartWorkspace } from '@/api/account/sessions';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';

const errorText = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : passkeyErrorMessage(error);

/**
 * A browser that has had a workspace and has no session (signed out, or signed out from another browser) is asked
 * how to go on, instead of silently getting an empty workspace nobody could reach again.
 */
export function NoSessionScreen() {
  const signIn = useSignInWithPasskey();
  const start = useStartWorkspace();
  const error = signIn.error ?? start.error;
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold">This browser is signed out</h1>
        <p className="mt-2 text-sm text-slate-600">
          Sign in with a passkey to open your workspace, or start a new, empty one. A teammate can also send you an
          invite link.
        </p>
        <div className="mt-5 flex flex-wrap gap-2">
          <Button disabled={signIn.isPending || start.isPending} onClick={() => signIn.mutate()}>
            Sign in with a passkey
          </Button>
          <Button variant="outline" disabled={signIn.isPending || start.isPending} onClick={() => start.mutate()}>
            Start a new workspace
          </Button>
        </div>
        {error ? (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {errorText(error)}
          </p>
        ) : null}
      </div>
    </main>
  );
}

/**
 * Shows the app once the browser's session is known, and the sign-in choice when it has none. Any other answer
 * (the server refused a new workspace, it is unreachable) lets the screens show their own.
 */
export function AccountGate({ children }: { children: ReactNode }) {
  const me = useMe();
  if (me.isPending) return null;
  if (me.isError && isNoSession(me.error)) return <NoSessionScreen />;
  return <>{children}</>;
}
