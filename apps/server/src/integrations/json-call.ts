/**
 * What the printers' API clients (Printful, Printify) share around one JSON call: the URL with its query, the pacing
 * and 429 handling, and reading the answer. Each client says how it sends, waits and names its errors.
 */

/** `path` on `base`, with the query's defined values. */
export function apiUrl(base: string, path: string, query: Record<string, string | undefined> = {}): URL {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url;
}

export type JsonCall = {
  /** Waits this call's turn under the client's own pace. */
  take(): Promise<void>;
  send(): Promise<Response>;
  /** How often a 429 is waited out and sent again before `limited` is thrown. */
  maxRetries: number;
  /** How long a 429 asks to wait (its Retry-After, else the client's backoff for this attempt), in ms. */
  waitMs(response: Response, attempt: number): number;
  /** Holds every call of the client back for `ms` (a 429 applies to the account, not to this call). */
  block(ms: number): void;
  /** Seen on every answer that is not a 429 (e.g. the server's own remaining count). */
  onAnswer?(response: Response): void;
  /** A 204 answers null (else an answer without JSON is unreadable). */
  emptyIsNull: boolean;
  unreachable(): Error;
  limited(): Error;
  refused(status: number, json: unknown): Error;
  unreadable(): Error;
};

export async function jsonCall<T>(call: JsonCall): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    await call.take();
    let response: Response;
    try {
      response = await call.send();
    } catch {
      throw call.unreachable();
    }
    if (response.status === 429) {
      await response.body?.cancel();
      call.block(call.waitMs(response, attempt));
      if (attempt < call.maxRetries) continue;
      throw call.limited();
    }
    call.onAnswer?.(response);
    if (call.emptyIsNull && response.status === 204) return null as T;
    const json = (await response.json().catch(() => null)) as unknown;
    if (!response.ok) throw call.refused(response.status, json);
    if (json === null) throw call.unreadable();
    return json as T;
  }
}
