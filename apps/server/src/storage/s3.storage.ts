import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { assertSafeKey, type Storage } from './storage';

export type S3StorageOptions = {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle?: boolean;
};

/** S3's smallest part size (except the last): streams are sent in parts of this size, never whole in memory. */
export const S3_PART_BYTES = 8 * 1024 * 1024;

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return error instanceof NoSuchKey || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Reads a stream in chunks of `size` bytes (the last may be shorter). */
async function* chunksOf(stream: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    pending.push(buffer);
    length += buffer.length;
    while (length >= size) {
      const all = Buffer.concat(pending);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      length = all.length - size;
    }
  }
  if (length > 0 || pending.length === 0) yield Buffer.concat(pending);
}

/** S3-compatible object storage (AWS, MinIO, R2...): same contract as local disk. */
export class S3Storage implements Storage {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.accessKeyId && options.secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
        : {}),
      // Checksums only where S3 requires them: many S3-compatible servers reject the newer trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable | Buffer, contentType: string): Promise<{ bytes: number }> {
    assertSafeKey(key);
    const stream = Buffer.isBuffer(body) ? Readable.from([body]) : body;
    const chunks = chunksOf(stream, S3_PART_BYTES);
    const first = await chunks.next();
    const firstChunk = first.done ? Buffer.alloc(0) : first.value;
    const second = await chunks.next();
    if (second.done) {
      await this.client.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: firstChunk, ContentType: contentType }),
      );
      return { bytes: firstChunk.length };
    }
    // Larger than one part: a multipart upload, aborted on any failure so nothing is left under the key.
    const created = await this.client.send(
      new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error('S3 returned no upload id');
    const parts: { ETag: string; PartNumber: number }[] = [];
    let bytes = 0;
    try {
      const sendPart = async (chunk: Buffer) => {
        const PartNumber = parts.length + 1;
        const result = await this.client.send(
          new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: chunk }),
        );
        parts.push({ ETag: result.ETag ?? '', PartNumber });
        bytes += chunk.length;
      };
      await sendPart(firstChunk);
      await sendPart(second.value);
      for await (const chunk of chunks) await sendPart(chunk);
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId }))
        .catch(() => undefined);
      throw error;
    }
    return { bytes };
  }

  async get(key: string) {
    assertSafeKey(key);
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!result.Body) return null;
      return { body: result.Body as Readable, bytes: result.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async read(key: string) {
    const file = await this.get(key);
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }

  async delete(key: string) {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string) {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
}
