import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';

/** The top of a sandbox page: the way back to Integrations, its title and what the sandbox is. */
export function SandboxPageHeader({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <Link to="/integrations" className="text-sm text-brand-600 hover:underline">
        &larr; Back to Integrations
      </Link>
      <h1 className="mt-2 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-slate-500">{children}</p>
    </div>
  );
}

/** While a sandbox is read, or when it could not be: a skeleton, or the error naming what could not be read. */
export function SandboxLoadState({ isPending, what }: { isPending: boolean; what: string }) {
  return isPending ? (
    <Skeleton className="h-32" />
  ) : (
    <p role="alert" className="text-sm text-red-600">
      Could not read {what}. Please try again.
    </p>
  );
}
