import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DESIGN_MAX_BYTES, type TDesign, type TDesignType } from '@podforge/contract';
import type { Db } from '../../db/db';
import { AppError, badRequest, notFound, payloadTooLarge } from '../../lib/errors';
import { putLocalFile } from '../../storage/storage';
import { assertStorageRoom } from '../../storage/usage';
import { DESIGN_DECODE } from './design-decode-kind';
import { type DecodedDesign, EXTENSION, inspectDesignFile, MIME } from './design-files';
import type { DesignsDeps } from './designs.deps';
import type { DesignRow, NewDesignRow } from './designs.repository';
import * as repo from './designs.repository';

export type DesignFileKind = 'original' | 'print' | 'thumbnail';

export function toDesign(row: DesignRow): TDesign {
  const base = `/api/designs/${row.id}/file`;
  return {
    id: row.id,
    name: row.name,
    type: row.type as TDesignType,
    size: row.bytes,
    width: row.width,
    height: row.height,
    vector: row.vector,
    url: `${base}/print`,
    thumbnailUrl: `${base}/thumbnail`,
    originalUrl: `${base}/original`,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A file name safe to store and show: no folders, no control characters, at most 200 characters. */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point.
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned.slice(-200) || 'design';
}

/**
 * Streams one uploaded file to a temporary file under DATA_DIR/tmp (never whole in memory). A file over the limit
 * (`maxBytes`, which must be the multipart `fileSize` limit of the route) answers 413 and leaves nothing behind.
 * The caller removes the temporary file when done.
 */
export async function receiveToTempFile(
  deps: DesignsDeps,
  name: string,
  stream: Readable & { truncated?: boolean },
  maxBytes: number = DESIGN_MAX_BYTES,
): Promise<{ tempPath: string; bytes: number }> {
  const dir = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `upload-${randomBytes(8).toString('hex')}`);
  const tooLarge = () => payloadTooLarge(`${name} is larger than ${maxBytes / 1024 / 1024} MB`);
  try {
    await pipeline(stream, fs.createWriteStream(tempPath, { flags: 'wx' }));
  } catch (error) {
    await fsp.rm(tempPath, { force: true });
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (error instanceof AppError) throw error;
    // The body ended or broke mid-file (a client that gave up, or a malformed multipart body): a 400, never a 500.
    throw badRequest(`${name} could not be received: the upload ended before the file did`);
  }
  // @fastify/multipart cuts a file at the limit without an error: the cut file must not pass as a whole one.
  if (stream.truncated) {
    await fsp.rm(tempPath, { force: true });
    throw tooLarge();
  }
  const { size } = await fsp.stat(tempPath);
  return { tempPath, bytes: size };
}

/** A file to become a design: an upload, or an image an AI provider made (source 'ai', with its prompt). */
export type DesignFileInput = {
  name: string;
  tempPath: string;
  bytes: number;
  source?: 'upload' | 'ai';
  prompt?: string | null;
  /** Scale a PNG to this square first (an AI images API answer of another size). */
  fitSquare?: number;
};

/**
 * What ties the work to its request: the request's AbortSignal (the client went away: the work stops and nothing
 * is kept) and the browser's upload id, under which `GET /api/designs/queue/:uploadId` reports its place.
 */
export type DesignWorkOptions = {
  signal?: AbortSignal | undefined;
  ticket?: string | null;
  /** Filled with milliseconds per step (inspect, queue and decode, the decoder's own steps, store, db). */
  timings?: Record<string, number>;
};

/** Adds the time since `since` to `timings[name]`; answers now, for the next step. */
function lap(timings: Record<string, number> | undefined, name: string, since: number): number {
  const now = performance.now();
  if (timings) timings[name] = (timings[name] ?? 0) + (now - since);
  return now;
}

/**
 * Validates and processes an uploaded file, stores original, print PNG and thumbnail, then records the design.
 * Any failure removes whatever was stored, so a refused file leaves no object and no row.
 */
export async function createDesignFromFile(
  deps: DesignsDeps,
  workspaceId: string,
  input: DesignFileInput,
  options: DesignWorkOptions = {},
): Promise<TDesign> {
  const [design] = await createDesigns(deps, workspaceId, [input], undefined, options);
  if (!design) throw new Error('no design was created');
  return design;
}

/**
 * Several files as designs, all or none: each is validated and processed like an upload, then every file is stored
 * and every row written in one transaction (with `withinTransaction`, e.g. the AI credit row, in the same one). Any
 * failure removes whatever was stored, so nothing is left of any of them.
 */
export async function createDesigns(
  deps: DesignsDeps,
  workspaceId: string,
  inputs: DesignFileInput[],
  withinTransaction?: (tx: Db, created: TDesign[]) => Promise<void>,
  options: DesignWorkOptions = {},
): Promise<TDesign[]> {
  const { signal, timings } = options;
  // The workspace's storage quota: 413 naming it before any work, when these files would pass it.
  await assertStorageRoom(deps.db, workspaceId, {
    quotaBytes: deps.config.storageQuotaBytes,
    incoming: inputs.reduce((sum, input) => sum + input.bytes, 0),
    name: inputs.length === 1 ? (inputs[0]?.name ?? 'The file') : `These ${inputs.length} files`,
  });
  let t = performance.now();
  const tmp = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(tmp, { recursive: true });
  const outDirs: string[] = [];
  const stored: string[] = [];
  let created: TDesign[] | null = null;
  try {
    const processed: { type: TDesignType; decoded: DecodedDesign }[] = [];
    for (const input of inputs) {
      // Header caps first, in this process; then the decode itself in the pool, in order, bounded.
      const { type, decodedBytes } = await inspectDesignFile(input.tempPath, input.name, input.bytes);
      t = lap(timings, 'inspect', t);
      const outDir = await fsp.mkdtemp(path.join(tmp, 'decode-'));
      outDirs.push(outDir);
      const decoded = await deps.decodePool.run(
        DESIGN_DECODE,
        {
          type,
          name: input.name,
          inputPath: input.tempPath,
          outDir,
          ...(input.fitSquare ? { fitSquare: input.fitSquare } : {}),
          ...(decodedBytes ? { decodedBytes } : {}),
        },
        { label: input.name, signal, ticket: options.ticket ?? null },
      );
      t = lap(timings, 'decode', t);
      for (const [step, ms] of Object.entries(decoded.timings ?? {})) {
        if (timings) timings[`decode.${step}`] = (timings[`decode.${step}`] ?? 0) + ms;
      }
      processed.push({ type, decoded });
    }
    const rows: NewDesignRow[] = [];
    for (const [i, { type, decoded }] of processed.entries()) {
      const input = inputs[i] as DesignFileInput;
      const id = randomUUID();
      const prefix = `${workspaceId}/designs/${id}`;
      const keys = {
        original: `${prefix}/original.${EXTENSION[type]}`,
        print: `${prefix}/print.png`,
        thumbnail: `${prefix}/thumbnail.png`,
        working: `${prefix}/working.png`,
      };
      const originalPath = decoded.originalPath ?? input.tempPath;
      signal?.throwIfAborted();
      // On local disk these are hard links to the files the upload and the decoder wrote: no bytes are copied
      // (a PNG that is its own print PNG is two names for one file). Each key is listed before it is written, so a
      // failure removes whatever was stored.
      stored.push(keys.original, keys.print, keys.thumbnail, keys.working);
      // Side by side, each settled before a failure is answered (so the clean-up never races a write still going).
      const puts = await Promise.allSettled([
        putLocalFile(deps.storage, keys.original, originalPath, MIME[type]),
        putLocalFile(deps.storage, keys.print, decoded.printPath, 'image/png'),
        putLocalFile(deps.storage, keys.thumbnail, decoded.thumbnailPath, 'image/png'),
        putLocalFile(deps.storage, keys.working, decoded.workingPath, 'image/png'),
      ]);
      const failed = puts.find((p) => p.status === 'rejected');
      if (failed) throw failed.reason;
      const original = (puts[0] as PromiseFulfilledResult<{ bytes: number }>).value;
      rows.push({
        id,
        workspaceId,
        name: input.name,
        type,
        mimeType: MIME[type],
        bytes: original.bytes,
        width: decoded.width,
        height: decoded.height,
        vector: decoded.vector,
        source: input.source ?? 'upload',
        prompt: input.prompt ?? null,
        originalKey: keys.original,
        printKey: keys.print,
        thumbnailKey: keys.thumbnail,
        workingKey: keys.working,
        createdAt: deps.now(),
      });
    }
    signal?.throwIfAborted();
    t = lap(timings, 'store', t);
    created = await deps.db.transaction(async (tx) => {
      const inserted = await repo.insertDesigns(tx, rows);
      // Insert order is not promised by RETURNING: answer in the order of the inputs.
      const byId = new Map(inserted.map((row) => [row.id, row]));
      const made = rows.map((r) => {
        const row = byId.get(r.id as string);
        if (!row) throw new Error('design insert returned no row');
        return toDesign(row);
      });
      await withinTransaction?.(tx, made);
      return made;
    });
    // The client went away while the rows were written: they are nobody's answer, so they go too (not when the
    // transaction carried other rows, e.g. an AI charge, which belong to a finished generation).
    if (!withinTransaction) signal?.throwIfAborted();
    lap(timings, 'db', t);
    return created;
  } catch (error) {
    if (created) {
      const ids = created.map((d) => d.id);
      await repo.deleteDesigns(deps.db, workspaceId, ids).catch(() => {});
    }
    await Promise.allSettled(stored.map((key) => deps.storage.delete(key)));
    throw error;
  } finally {
    await Promise.allSettled(outDirs.map((dir) => fsp.rm(dir, { recursive: true, force: true })));
  }
}

/** A new path under DATA_DIR/tmp (the folder is made; the file is not): for a decode job's output. */
export async function tempFilePath(deps: Pick<DesignsDeps, 'config'>, prefix: string): Promise<string> {
  const dir = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(dir, { recursive: true });
  return path.join(dir, `${prefix}-${randomBytes(8).toString('hex')}`);
}

/**
 * Runs `fn` with a local path of a stored design file for the decode pool: the file itself on local disk, else a
 * temporary copy (streamed, never whole in memory) removed afterwards.
 */
export async function withStoredDesignFile<T>(
  deps: Pick<DesignsDeps, 'config' | 'storage'>,
  key: string,
  fn: (filePath: string) => Promise<T>,
): Promise<T> {
  // On local disk the stored file is read in place (it is never rewritten: a changed design is a new key).
  if (deps.storage.localPath) {
    const local = await deps.storage.localPath(key);
    if (!local) throw notFound('Design file');
    return fn(local);
  }
  const file = await deps.storage.get(key);
  if (!file) throw notFound('Design file');
  const dir = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(dir, { recursive: true });
  const tempPath = path.join(dir, `design-${randomBytes(8).toString('hex')}`);
  try {
    await pipeline(file.body, fs.createWriteStream(tempPath, { flags: 'wx' }));
    return await fn(tempPath);
  } finally {
    await fsp.rm(tempPath, { force: true });
  }
}

export async function listDesigns(deps: DesignsDeps, workspaceId: string, limit: number): Promise<TDesign[]> {
  return (await repo.listDesignRows(deps.db, workspaceId, limit)).map(toDesign);
}

/** A design of the workspace, or 404 (another workspace's is "not found", never "forbidden"). */
export async function getDesignRow(deps: Pick<DesignsDeps, 'db'>, workspaceId: string, id: string): Promise<DesignRow> {
  return repo.findDesign(deps.db, workspaceId, id);
}

export async function deleteDesign(deps: DesignsDeps, workspaceId: string, id: string): Promise<void> {
  // Its mockups' rows go with it (cascade); their files must too, or they would stay stored, unreachable, counted
  // against the workspace's storage quota.
  const { row, mockupKeys } = await repo.deleteDesign(deps.db, workspaceId, id);
  const keys = [row.originalKey, row.printKey, row.thumbnailKey, row.workingKey, ...mockupKeys].filter(
    (k): k is string => !!k,
  );
  await Promise.all(keys.map((key) => deps.storage.delete(key)));
}

export async function openDesignFile(deps: DesignsDeps, workspaceId: string, id: string, kind: DesignFileKind) {
  const row = await getDesignRow(deps, workspaceId, id);
  const key = kind === 'original' ? row.originalKey : kind === 'print' ? row.printKey : row.thumbnailKey;
  const file = await deps.storage.get(key);
  if (!file) throw notFound('Design file');
  const contentType = kind === 'original' ? row.mimeType : 'image/png';
  const baseName = row.name.replace(/\.[^.]*$/, '');
  const fileName = kind === 'original' ? row.name : `${baseName}-${kind}.png`;
  return { ...file, contentType, fileName, type: row.type as TDesignType };
}
