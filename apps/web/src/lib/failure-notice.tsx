import type { ReactNode } from 'react';
import { ApiError } from './api-client';

/** The server's own reason for a refusal, when it sent one (`{ error }` or `{ message }`). */
export function serverReason(error: unknown): string | null {
  return error instanceof ApiError ? error.serverMessage : null;
}

/**
 * A failure notice's text: the spec's message, and under it what the server said went wrong (e.g. 'cat.png is not a
 * PNG, JPEG, SVG or PDF file'), so the seller knows what to change rather than only to try again.
 */
export function failureDescription(message: string, error: unknown): ReactNode {
  const reason = serverReason(error);
  if (!reason) return message;
  return (
    <>
      <span className="block">{message}</span>
      <span className="mt-1 block font-medium" data-testid="failure-reason">
        {reason}
      </span>
    </>
  );
}
