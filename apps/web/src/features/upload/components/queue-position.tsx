import { Clock } from 'lucide-react';
import { useUploadQueue } from '@/api/designs/get-upload-queue';

/**
 * An uploading file's place in the server's decode queue (issue 14): 'Waiting in queue • position 2 of 3' while
 * other files are decoded first, 'Processing the file…' once its turn came. Nothing while the file is still being
 * sent, or when the server does not know the upload (another instance has it).
 */
export function QueuePosition({ uploadId }: { uploadId: string }) {
  const { data } = useUploadQueue(uploadId, true);
  if (!data || data.state === 'unknown') return null;
  return (
    <p className="mt-1 flex items-center gap-1 text-xs text-slate-600" data-testid="queue-position" aria-live="polite">
      <Clock className="h-3 w-3" aria-hidden />
      {data.state === 'waiting'
        ? `Waiting in queue • position ${data.position} of ${data.waiting}`
        : 'Processing the file…'}
    </p>
  );
}
