import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { cn } from '@/lib/utils';
import { dismiss, TOAST_DURATION, useToast } from './use-toast';

const variantClass = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  destructive: 'border-red-200 bg-red-600 text-white',
} as const;

/** Swipe right (threshold 50 px) dismisses; F8 focuses the region (Radix's default hotkey). */
export function Toaster() {
  const { toasts } = useToast();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, variant = 'default', open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          onOpenChange={(next) => {
            if (!next) dismiss(id);
          }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-8 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-[var(--radix-toast-swipe-end-x)] data-[swipe=cancel]:translate-x-0 data-[state=closed]:opacity-0 transition-opacity',
            variantClass[variant],
          )}
        >
          <div className="grid gap-1">
            {title && <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title>}
            {description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-2 right-2 rounded-md p-1 opacity-70 hover:opacity-100 focus:opacity-100"
          >
            <X className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Under the sticky header, top right: the step actions (Continue, Upload Product, Create Product) sit at the
          bottom, where toasts used to cover them. The empty viewport lets clicks through; only a toast takes them. */}
      <ToastPrimitive.Viewport
        className="pointer-events-none fixed top-16 right-0 z-[100] flex max-h-[calc(100vh-4rem)] w-full flex-col p-4 md:max-w-[420px]"
        data-testid="toast-viewport"
      />
    </ToastPrimitive.Provider>
  );
}
