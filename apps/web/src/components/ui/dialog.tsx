import { X } from 'lucide-react';
import type * as React from 'react';
import { useEffect, useId, useRef } from 'react';
import { cn } from '@/lib/utils';
import { Button } from './button';

type Props = {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** Escape, the close button and the parent's own buttons all end here; the parent unmounts the dialog. */
  onClose: () => void;
  children: React.ReactNode;
  className?: string;
};

/**
 * A modal native `<dialog>` (as the settings dialog): the browser traps focus, makes the page inert and closes on
 * Escape. Render it only while open. jsdom has no `showModal`, so there it is simply opened.
 */
export function Dialog({ title, description, onClose, children, className }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    // The parent unmounts the dialog instead of closing it, so the browser does not give the focus back: do it here,
    // to what had it when the dialog opened (the button that opened it), else it falls to the page's body.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(e) => {
        // Escape: let React state close it, so the parent and the DOM agree.
        e.preventDefault();
        onClose();
      }}
      className={cn(
        'm-auto max-h-[calc(100vh-2rem)] w-[min(32rem,calc(100vw-2rem))] overflow-y-auto rounded-xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40',
        className,
      )}
    >
      <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4">
        <div className="space-y-1">
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="text-sm text-slate-500">
              {description}
            </p>
          )}
        </div>
        <Button variant="ghost" size="icon" aria-label="Close" onClick={onClose}>
          <X />
        </Button>
      </div>
      <div className="px-5 py-4">{children}</div>
    </dialog>
  );
}
