import { ErrorCode } from '@podforge/contract';
import type { z } from 'zod';
import { AppError } from './errors';

/**
 * Parses request input with a contract schema; a failure answers 400 naming the field, e.g.
 * "Invalid query: page: Too small: expected number to be >=1".
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: 'body' | 'query' | 'params',
): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
  throw new AppError(400, ErrorCode.ValidationFailed, `Invalid ${where}: ${detail}`);
}
