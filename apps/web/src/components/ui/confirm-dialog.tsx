import type * as React from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

type Props = {
  title: string;
  children: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
};

/** Asks before an action that cannot simply be undone (Disconnect): Cancel keeps things as they are. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose }: Props) {
  return (
    <Dialog title={title} onClose={onClose}>
      <div className="space-y-4 text-sm text-slate-700">{children}</div>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="destructive"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
