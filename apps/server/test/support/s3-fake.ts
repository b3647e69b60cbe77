import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small S3-compatible server on 127.0.0.1 for tests: path-style PutObject, GetObject, HeadObject, DeleteObject,
 * ListObjectsV2 and multipart uploads (create, upload part, complete, abort), as @aws-sdk/client-s3 sends them.
 * Objects live in memory. It does not check signatures.
 */
export async function startS3Fake() {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const uploads = new Map<string, { key: string; contentType: string; parts: Map<number, Buffer> }>();
  const stats = { multipartCompleted: 0 };
  const xml = (res: http.ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'Content-Type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
  };
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const q = url.searchParams;
    const id = `${bucket}/${key}`;
    if (req.method === 'GET' && !key && q.get('list-type') === '2') {
      const prefix = `${bucket}/${q.get('prefix') ?? ''}`;
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix)).sort();
      const contents = keys
        .map(
          (k) =>
            `<Contents><Key>${esc(k.slice(bucket.length + 1))}</Key><Size>${objects.get(k)?.body.length}</Size></Contents>`,
        )
        .join('');
      return xml(
        res,
        200,
        `<ListBucketResult><Name>${bucket}</Name><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`,
      );
    }
    if (req.method === 'POST' && q.has('uploads')) {
      const uploadId = randomBytes(8).toString('hex');
      uploads.set(uploadId, { key: id, contentType: req.headers['content-type'] ?? '', parts: new Map() });
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${esc(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    const uploadId = q.get('uploadId');
    if (uploadId) {
      const upload = uploads.get(uploadId);
      if (!upload) return xml(res, 404, '<Error><Code>NoSuchUpload</Code></Error>');
      if (req.method === 'PUT') {
        upload.parts.set(Number(q.get('partNumber')), body);
        res.writeHead(200, { ETag: `"${randomBytes(4).toString('hex')}"` });
        return res.end();
      }
      if (req.method === 'POST') {
        const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
        objects.set(upload.key, {
          body: Buffer.concat(numbers.map((n) => upload.parts.get(n) as Buffer)),
          contentType: upload.contentType,
        });
        uploads.delete(uploadId);
        stats.multipartCompleted += 1;
        return xml(res, 200, `<CompleteMultipartUploadResult><Key>${esc(key)}</Key></CompleteMultipartUploadResult>`);
      }
      if (req.method === 'DELETE') {
        uploads.delete(uploadId);
        res.writeHead(204);
        return res.end();
      }
    }
    if (req.method === 'PUT') {
      objects.set(id, { body, contentType: req.headers['content-type'] ?? 'application/octet-stream' });
      res.writeHead(200, { ETag: '"x"' });
      return res.end();
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const object = objects.get(id);
      if (!object) return xml(res, 404, `<Error><Code>NoSuchKey</Code><Key>${esc(key)}</Key></Error>`);
      res.writeHead(200, { 'Content-Type': object.contentType, 'Content-Length': object.body.length });
      return res.end(req.method === 'GET' ? object.body : undefined);
    }
    if (req.method === 'DELETE') {
      objects.delete(id);
      res.writeHead(204);
      return res.end();
    }
    xml(res, 400, '<Error><Code>NotImplemented</Code></Error>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    uploads,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
