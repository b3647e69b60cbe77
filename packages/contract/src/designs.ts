import { z } from 'zod';

export const ZDesignType = z.enum(['png', 'jpeg', 'svg', 'pdf']);
export type TDesignType = z.infer<typeof ZDesignType>;

/** A stored design; `url` is the print PNG, `thumbnailUrl` a PNG of at most 512 px. */
export const ZDesign = z.object({
  id: z.string(),
  name: z.string(),
  type: ZDesignType,
  /** Bytes of the original file as uploaded (after sanitising, for SVG). */
  size: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /**
   * Vector art (SVG, or a PDF whose page 1 paints no raster image): print files draw it at their own size, so it is
   * print-ready at any size (the ready rule, `printReadiness`).
   */
  vector: z.boolean(),
  url: z.string(),
  thumbnailUrl: z.string(),
  originalUrl: z.string(),
  source: z.enum(['upload', 'ai']),
  createdAt: z.string(),
});
export type TDesign = z.infer<typeof ZDesign>;

/** One entry of `POST /api/upload/files`: the design, or the file name with the reason it was refused. */
export const ZUploadFilesItem = z.union([
  ZDesign,
  z.object({ name: z.string(), error: z.string(), status: z.number().int() }),
]);
export type TUploadFilesItem = z.infer<typeof ZUploadFilesItem>;

export const ZUploadFilesResponse = z.object({ files: z.array(ZUploadFilesItem) });
export type TUploadFilesResponse = z.infer<typeof ZUploadFilesResponse>;

export const ZDesignIdParams = z.object({ id: z.uuid() });
export const ZDesignFileParams = z.object({ id: z.uuid(), kind: z.enum(['original', 'print', 'thumbnail']) });
export const ZDesignListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

export const ZUploadIdParams = z.object({ uploadId: z.uuid() });

/**
 * An upload's place on the instance that has it: 'waiting' at `position` (1 = next) of `waiting` files, or
 * 'processing'; 'unknown' while its file is still arriving, once it is done, or when another instance has it.
 */
export const ZUploadQueueStatus = z.object({
  uploadId: z.string(),
  state: z.enum(['waiting', 'processing', 'unknown']),
  position: z.number().int().nullable(),
  waiting: z.number().int(),
});
export type TUploadQueueStatus = z.infer<typeof ZUploadQueueStatus>;
