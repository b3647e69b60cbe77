import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';

/**
 * Screens load on demand: each route and tab is its own chunk, so the first page downloads only the shell and the
 * screen it shows. `lazyScreen` takes a module's named export.
 */
export function lazyScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazy(async () => ({ default: await load() }));
}

/** What shows while a screen's code arrives. */
export function ScreenSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="py-16 text-center text-sm text-muted-foreground">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}
