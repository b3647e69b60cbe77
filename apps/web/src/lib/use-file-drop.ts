import { type ChangeEvent, type DragEvent, useRef, useState } from 'react';
import { DESIGN_ACCEPT, DESIGN_ACCEPT_ATTRIBUTE } from './design-files';

/** Why a file was refused in the browser (the server checks the bytes whatever passes here). */
export type FileDropRefusal = 'file-too-large' | 'file-invalid-type' | 'too-many-files';

/** A design file by its MIME type or, when the browser gives none it knows, by its extension. */
export function isDesignFile(file: File): boolean {
  const name = file.name.toLowerCase();
  return Object.entries(DESIGN_ACCEPT).some(
    ([mime, extensions]) => file.type === mime || extensions.some((ext) => name.endsWith(ext)),
  );
}

/**
 * One design file, dropped on an area or chosen with its button: what Create Product's first step needs, without
 * react-dropzone (about 6 KB gzip of the page's first JavaScript; the Upload Design screen, which takes many files
 * and shows react-dropzone's own reasons, keeps it). Several files at once, a file over `maxSize` (checked first, as
 * react-dropzone reports it) or of another type go to `onRefused`.
 */
export function useFileDrop(options: {
  maxSize: number;
  disabled?: boolean;
  onFile: (file: File) => void;
  onRefused: (reason: FileDropRefusal, file: File) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [isDragActive, setDragActive] = useState(false);
  // dragenter and dragleave fire for every child the pointer crosses: the area is left when they balance.
  const depth = useRef(0);

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (!file || options.disabled) return;
    if ((files?.length ?? 0) > 1) options.onRefused('too-many-files', file);
    else if (file.size > options.maxSize) options.onRefused('file-too-large', file);
    else if (!isDesignFile(file)) options.onRefused('file-invalid-type', file);
    else options.onFile(file);
  };

  const rootProps = {
    onDragEnter: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      depth.current += 1;
      if (!options.disabled) setDragActive(true);
    },
    onDragOver: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = options.disabled ? 'none' : 'copy';
    },
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragActive(false);
    },
    onDrop: (event: DragEvent<HTMLElement>) => {
      event.preventDefault();
      depth.current = 0;
      setDragActive(false);
      take(event.dataTransfer?.files ?? null);
    },
  };

  const inputProps = {
    ref: input,
    type: 'file',
    accept: DESIGN_ACCEPT_ATTRIBUTE,
    multiple: false,
    disabled: options.disabled,
    tabIndex: -1,
    className: 'sr-only',
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      take(event.target.files);
      // The same file chosen again is a new choice.
      event.target.value = '';
    },
  };

  return { rootProps, inputProps, isDragActive, open: () => input.current?.click() };
}
