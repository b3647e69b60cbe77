import type * as React from 'react';
import { cn } from '@/lib/utils';

export const Skeleton = ({ className, ...props }: React.HTMLAttributes<HTMLDivElement>) => (
  <div data-testid="skeleton" className={cn('animate-pulse rounded-md bg-slate-200', className)} {...props} />
);
