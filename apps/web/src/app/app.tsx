import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { lazyScreen } from './lazy-screens';
import { AppRoutes } from './routes';

// The toast region's code (Radix Toast) loads after the first page; toasts raised before it arrives wait in
// use-toast's store and show once it is there.
const Toaster = lazyScreen(async () => (await import('@/components/ui/toaster')).Toaster);

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </QueryClientProvider>
  );
}
