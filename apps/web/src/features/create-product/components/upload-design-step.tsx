import type { TDesign } from '@podforge/contract';
import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL } from '@podforge/contract/plain';
import { FileImage, Loader2, Upload } from 'lucide-react';
import { useDesigns } from '@/api/designs/get-designs';
import { useUploadDesign } from '@/api/designs/upload-design';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { type FileDropRefusal, useFileDrop } from '@/lib/use-file-drop';

const RECENT_DESIGNS_SHOWN = 8;

type Props = { design: TDesign | null; onDesign: (design: TDesign) => void };

export function UploadDesignStep({ design, onDesign }: Props) {
  const upload = useUploadDesign();
  const designs = useDesigns();

  const onRefused = (reason: FileDropRefusal) => {
    toast(
      reason === 'file-too-large'
        ? {
            title: 'File Too Large',
            description: `Please upload a file smaller than ${DESIGN_MAX_LABEL}.`,
            variant: 'destructive',
          }
        : {
            title: 'Invalid File Type',
            description: 'Please upload a PNG, JPEG, SVG, or PDF file.',
            variant: 'destructive',
          },
    );
  };

  const onFile = async (file: File) => {
    try {
      const uploaded = await upload.mutateAsync({ file });
      toast({
        title: 'Upload Complete',
        description: `${file.name} has been uploaded successfully.`,
        variant: 'success',
      });
      onDesign(uploaded);
    } catch (error) {
      toast({
        title: 'Upload Failed',
        description:
          (error instanceof ApiError && error.serverMessage) || `Failed to upload ${file.name} . Please try again.`,
        variant: 'destructive',
      });
    }
  };

  const { rootProps, inputProps, isDragActive, open } = useFileDrop({
    onFile,
    onRefused,
    maxSize: DESIGN_MAX_BYTES,
    disabled: upload.isPending,
  });

  const recent = (designs.data ?? []).filter((d) => d.id !== design?.id).slice(0, RECENT_DESIGNS_SHOWN);

  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="p-6">
          <div
            {...rootProps}
            data-testid="simple-dropzone"
            className={`flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-10 text-center transition-colors ${
              isDragActive ? 'border-brand-500 bg-brand-50' : 'border-slate-300'
            }`}
          >
            <input {...inputProps} data-testid="simple-file-input" aria-label="Design file" />
            {upload.isPending ? (
              <Loader2 className="h-10 w-10 animate-spin text-brand-600" aria-label="Uploading" />
            ) : (
              <Upload className="h-10 w-10 text-slate-400" aria-hidden />
            )}
            <p className="text-lg font-medium">
              {upload.isPending
                ? 'Uploading…'
                : isDragActive
                  ? 'Drop the design here'
                  : 'Drag and drop your design here'}
            </p>
            <p className="text-sm text-slate-500">PNG, JPEG, SVG or PDF, up to {DESIGN_MAX_LABEL}</p>
            <Button onClick={open} disabled={upload.isPending}>
              Choose File
            </Button>
          </div>
        </CardContent>
      </Card>

      {design && (
        <Card data-testid="chosen-design">
          <CardContent className="flex items-center gap-4 p-4">
            <img src={design.thumbnailUrl} alt="" className="h-16 w-16 rounded bg-slate-100 object-contain" />
            <div className="min-w-0 flex-1">
              <p className="truncate font-medium">{design.name}</p>
              <p className="text-sm text-slate-500">
                {design.type.toUpperCase()} · {design.width}×{design.height} px
              </p>
            </div>
            <Button onClick={() => onDesign(design)}>Continue with this design</Button>
          </CardContent>
        </Card>
      )}

      {recent.length > 0 && (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Or use a design you uploaded before</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {recent.map((d) => (
                <li key={d.id}>
                  <button
                    type="button"
                    onClick={() => onDesign(d)}
                    className="flex w-full flex-col items-center gap-2 rounded-lg border border-slate-200 p-3 text-sm hover:border-brand-400 hover:bg-brand-50"
                  >
                    {d.thumbnailUrl ? (
                      <img src={d.thumbnailUrl} alt="" className="h-20 w-20 object-contain" />
                    ) : (
                      <FileImage className="h-20 w-20 text-slate-300" aria-hidden />
                    )}
                    <span className="w-full truncate">{d.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
