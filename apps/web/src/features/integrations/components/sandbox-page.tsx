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

/**
 * One store on a sandbox page: its name (the heading, or `heading` when it says more), what was pushed to it as a
 * list of product cards, or that nothing was yet, and its test order form.
 */
export function SandboxStore({
  name,
  heading,
  empty,
  noun = 'store',
  listClassName = 'grid gap-4 lg:grid-cols-2',
  order,
  children,
}: {
  name: string;
  heading?: ReactNode;
  empty: boolean;
  noun?: string;
  listClassName?: string;
  order: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={name} className="space-y-3">
      <h2 className="text-lg font-semibold">{heading ?? name}</h2>
      {empty ? (
        <p className="text-sm text-slate-600">Nothing was pushed to this {noun} yet.</p>
      ) : (
        <ul className={listClassName}>{children}</ul>
      )}
      {order}
    </section>
  );
}

/** A product card's title line: its name and its state as the store holds it. */
export function SandboxProductTitle({ title, state }: { title: string; state: string }) {
  return (
    <div className="flex items-start justify-between gap-2">
      <h3 className="font-semibold">{title}</h3>
      <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs text-green-800">{state}</span>
    </div>
  );
}

/** A product's variants as the sandbox store sells them, under these column names; the rows are the children. */
export function SandboxVariantTable({ columns, children }: { columns: string[]; children: ReactNode }) {
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="text-slate-500">
          {columns.map((c) => (
            <th key={c} className="font-medium">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
