import * as React from 'react';

/**
 * Toast store in the shadcn/ui way: one toast visible at a time (a new one replaces it), and a dismissed toast is
 * removed from memory after TOAST_REMOVE_DELAY (spec section 9).
 */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;

export type ToastVariant = 'default' | 'destructive' | 'success';

export type ToastData = {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  variant?: ToastVariant;
  open: boolean;
};

type State = { toasts: ToastData[] };

let count = 0;
const nextId = () => {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return String(count);
};

const listeners: Array<(state: State) => void> = [];
let memoryState: State = { toasts: [] };
const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function setState(next: State) {
  memoryState = next;
  for (const listener of listeners) listener(memoryState);
}

function scheduleRemoval(id: string) {
  if (removeTimeouts.has(id)) return;
  removeTimeouts.set(
    id,
    setTimeout(() => {
      removeTimeouts.delete(id);
      setState({ toasts: memoryState.toasts.filter((t) => t.id !== id) });
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismiss(id?: string) {
  for (const t of memoryState.toasts) if (!id || t.id === id) scheduleRemoval(t.id);
  setState({ toasts: memoryState.toasts.map((t) => (!id || t.id === id ? { ...t, open: false } : t)) });
}

export type ToastInput = Omit<ToastData, 'id' | 'open'>;

export function toast(input: ToastInput) {
  const id = nextId();
  setState({ toasts: [{ ...input, id, open: true }, ...memoryState.toasts].slice(0, TOAST_LIMIT) });
  return { id, dismiss: () => dismiss(id) };
}

export function useToast() {
  const [state, setLocal] = React.useState<State>(memoryState);
  React.useEffect(() => {
    listeners.push(setLocal);
    // A screen that mounts before the Toaster may already have raised a toast: pick it up.
    setLocal(memoryState);
    return () => {
      const index = listeners.indexOf(setLocal);
      if (index > -1) listeners.splice(index, 1);
    };
  }, []);
  return { ...state, toast, dismiss };
}
