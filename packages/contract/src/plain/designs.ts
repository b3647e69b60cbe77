/** Upload limits shared by the Upload Design screen and the server (spec sections 5 and 9). */
export const DESIGN_MAX_BYTES = 50 * 1024 * 1024;
/** Pixel cap checked from the header before anything is decoded (pixel bombs). */
export const DESIGN_MAX_PIXELS = 100_000_000;
export const DESIGN_THUMBNAIL_MAX = 512;

/**
 * The browser names each upload with a random id in this header; while the server decodes or queues the upload's
 * files, `GET /api/designs/queue/:uploadId` tells where it is.
 */
export const UPLOAD_ID_HEADER = 'x-upload-id';
