import type * as React from 'react';
import { UploadRejectedError } from '@/api/products/upload-product';
import { ApiError } from '@/lib/api-client';

/** The server's reason, when it gave one (a bare 5xx has none). */
export function failureReason(error: unknown): string | null {
  if (error instanceof ApiError) return error.serverMessage;
  if (error instanceof UploadRejectedError) return error.message;
  return null;
}

/** A toast description: the fixed sentence, then the server's reason on its own line. */
export function twoLines(message: string, reason: string | null): React.ReactNode {
  return (
    <>
      <span className="block">{message}</span>
      {reason && <span className="block">{reason}</span>}
    </>
  );
}
