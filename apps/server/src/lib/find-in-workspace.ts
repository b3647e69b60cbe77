import { notFound } from './errors';
import { UUID } from './uuid';

/**
 * The one 'find in workspace or 404': an id that is not a UUID, an unknown one and another workspace's are all
 * "<what> not found" (never a database error, never a hint that the row exists elsewhere). Each repository's finder
 * passes its workspace-scoped lookup.
 */
export async function findInWorkspace<T>(what: string, id: string, lookup: () => Promise<T | undefined>): Promise<T> {
  if (!UUID.test(id)) throw notFound(what);
  const row = await lookup();
  if (!row) throw notFound(what);
  return row;
}
