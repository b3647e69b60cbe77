import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

/** Spec section 9: the copied tick shows for 2 s. */
export const COPIED_TICK_MS = 2000;

/** Copies `value` to the clipboard, says so, and shows a tick for 2 s. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_TICK_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      toast({ title: 'Copy Failed', description: 'The browser did not allow copying.', variant: 'destructive' });
      return;
    }
    setCopied(true);
    toast({ title: 'Copied to Clipboard', description: `${label} copied.`, variant: 'success' });
  };

  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
      onClick={copy}
    >
      {copied ? <Check className="text-green-600" /> : <Copy />}
    </Button>
  );
}
