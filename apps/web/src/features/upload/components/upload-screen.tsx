import type { TDesign } from '@podforge/contract';
import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL } from '@podforge/contract/plain';
import { CheckCircle2, FileImage, Loader2, Upload, X, XCircle } from 'lucide-react';
import { useState } from 'react';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { useNavigate } from 'react-router';
import { useUploadDesign } from '@/api/designs/upload-design';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { DESIGN_ACCEPT } from '@/lib/design-files';
import { failureDescription, serverReason } from '@/lib/failure-notice';
import { QueuePosition } from './queue-position';

/** Spec section 3 'Upload queue item' (client only), plus the stored design once complete. */
export type UploadQueueItem = {
  id: string;
  file: File;
  progress: number;
  status: 'uploading' | 'complete' | 'error';
  design?: TDesign;
  /** Why the server refused the file, when it said. */
  reason?: string | null;
};

/** Spec section 4: the bar shows a fixed 75% while a file uploads. */
const UPLOADING_PROGRESS = 75;

function formatSize(bytes: number) {
  return bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function UploadScreen() {
  const [queue, setQueue] = useState<UploadQueueItem[]>([]);
  const [rejections, setRejections] = useState<FileRejection[]>([]);
  const upload = useUploadDesign();
  const navigate = useNavigate();

  const update = (id: string, patch: Partial<UploadQueueItem>) =>
    setQueue((items) => items.map((item) => (item.id === id ? { ...item, ...patch } : item)));

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    setRejections(rejected);
    for (const file of accepted) {
      const id = crypto.randomUUID();
      setQueue((items) => [...items, { id, file, progress: UPLOADING_PROGRESS, status: 'uploading' }]);
      // mutateAsync: per-call callbacks of mutate() fire only for the latest call, and several files upload at once.
      upload.mutateAsync({ file, uploadId: id }).then(
        (design) => {
          update(id, { status: 'complete', progress: 100, design });
          toast({
            title: 'Upload Complete',
            description: `${file.name} has been uploaded successfully.`,
            variant: 'success',
          });
        },
        (error: unknown) => {
          update(id, { status: 'error', progress: 0, reason: serverReason(error) });
          toast({
            title: 'Upload Failed',
            description: failureDescription(`Failed to upload ${file.name} . Please try again.`, error),
            variant: 'destructive',
          });
        },
      );
    }
  };

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    accept: DESIGN_ACCEPT,
    maxSize: DESIGN_MAX_BYTES,
    multiple: true,
    noClick: true,
  });

  const processDesign = (item: UploadQueueItem) => {
    if (!item.design) return;
    toast({ title: 'Processing Design', description: `Opening ${item.file.name} in the create flow.` });
    navigate(`/create-product?step=details&designId=${encodeURIComponent(item.design.id)}`);
  };

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Upload Design Files</h1>
        <p className="text-slate-500">Upload your design files and let AI generate product listings for you.</p>
      </div>

      <Card>
        <CardContent className="p-6">
          <div
            {...getRootProps()}
            data-testid="dropzone"
            className={`flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-10 text-center transition-colors ${
              isDragActive ? 'border-brand-500 bg-brand-50' : 'border-slate-300'
            }`}
          >
            <input {...getInputProps()} data-testid="file-input" />
            <Upload className="h-10 w-10 text-slate-400" aria-hidden />
            <p className="text-lg font-medium">
              {isDragActive ? 'Drop the files here' : 'Drag and drop your designs here'}
            </p>
            <p className="text-sm text-slate-500">PNG, JPEG, SVG or PDF, up to {DESIGN_MAX_LABEL} each</p>
            <Button onClick={open}>Choose Files</Button>
          </div>
          {rejections.length > 0 && (
            <ul className="mt-4 space-y-1 text-sm text-red-600" data-testid="rejections">
              {rejections.map(({ file, errors }) => (
                <li key={`${file.name}-${file.size}`}>
                  {file.name}: {errors.map((e) => e.message).join('; ')}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      {queue.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle>Upload Queue</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="space-y-3">
              {queue.map((item) => (
                <li
                  key={item.id}
                  data-testid="upload-item"
                  data-status={item.status}
                  className="flex items-center gap-4 rounded-lg border border-slate-200 p-3"
                >
                  {item.design ? (
                    <img
                      src={item.design.thumbnailUrl}
                      alt=""
                      className="h-12 w-12 rounded bg-slate-100 object-contain"
                    />
                  ) : (
                    <FileImage className="h-12 w-12 text-slate-400" aria-hidden />
                  )}
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{item.file.name}</p>
                    <p className="text-xs text-slate-500">{formatSize(item.file.size)}</p>
                    {item.status === 'uploading' && (
                      <div className="mt-2 flex items-center gap-2">
                        <div
                          className="h-2 flex-1 rounded-full bg-slate-100"
                          role="progressbar"
                          aria-valuenow={item.progress}
                          aria-valuemin={0}
                          aria-valuemax={100}
                        >
                          <div className="h-2 rounded-full bg-brand-600" style={{ width: `${item.progress}%` }} />
                        </div>
                        <Loader2 className="h-4 w-4 animate-spin text-slate-400" aria-hidden />
                      </div>
                    )}
                    {item.status === 'uploading' && <QueuePosition uploadId={item.id} />}
                    {item.status === 'complete' && (
                      <p className="mt-1 flex items-center gap-1 text-sm text-green-600">
                        <CheckCircle2 className="h-4 w-4" aria-hidden /> Upload complete
                        {item.design && ` • ${item.design.width}×${item.design.height}`}
                      </p>
                    )}
                    {item.status === 'error' && (
                      <>
                        <p className="mt-1 flex items-center gap-1 text-sm text-red-600">
                          <XCircle className="h-4 w-4" aria-hidden /> Upload failed • Please try again
                        </p>
                        {item.reason && <p className="mt-0.5 text-xs text-red-700">{item.reason}</p>}
                      </>
                    )}
                  </div>
                  {item.status === 'complete' && (
                    <Button size="sm" onClick={() => processDesign(item)}>
                      Process Design
                    </Button>
                  )}
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove ${item.file.name}`}
                    onClick={() => setQueue((items) => items.filter((i) => i.id !== item.id))}
                  >
                    <X />
                  </Button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
