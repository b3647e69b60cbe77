import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage } from '../src/storage/local-disk.storage';
import { S3_PART_BYTES, S3Storage } from '../src/storage/s3.storage';
import { putLocalFile, type Storage } from '../src/storage/storage';
import { startS3Fake } from './support/s3-fake';

let s3: Awaited<ReturnType<typeof startS3Fake>>;
let dir: string;
const storages: Record<string, () => Storage> = {
  'local disk': () => new LocalDiskStorage(dir),
  'S3-compatible (local fake over HTTP)': () =>
    new S3Storage({
      bucket: 'b',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    }),
};

beforeAll(async () => {
  s3 = await startS3Fake();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-storage-'));
});
afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(Object.keys(storages))('Storage on %s', (label) => {
  const storage = () => (storages[label] as () => Storage)();

  it('puts, gets, reads, lists and deletes by key', async () => {
    const s = storage();
    await s.put('ws1/designs/a/print.png', Buffer.from('hello'), 'image/png');
    await s.put('ws1/designs/b/print.png', Readable.from([Buffer.from('wor'), Buffer.from('ld')]), 'image/png');
    await s.put('ws2/designs/c/print.png', Buffer.from('x'), 'image/png');
    expect((await s.read('ws1/designs/a/print.png'))?.toString()).toBe('hello');
    const got = await s.get('ws1/designs/b/print.png');
    expect(got?.bytes).toBe(5);
    expect(await s.list('ws1/')).toEqual(['ws1/designs/a/print.png', 'ws1/designs/b/print.png']);
    await s.delete('ws1/designs/a/print.png');
    await s.delete('ws1/designs/missing.png');
    expect(await s.get('ws1/designs/a/print.png')).toBeNull();
    expect(await s.read('ws1/designs/a/print.png')).toBeNull();
    expect(await s.list('ws1/')).toEqual(['ws1/designs/b/print.png']);
  });

  it('streams a file larger than one S3 part intact', async () => {
    const s = storage();
    const size = S3_PART_BYTES * 2 + 12345;
    const source = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4096) source[i] = i % 251;
    const chunks = function* () {
      for (let i = 0; i < size; i += 1 << 20) yield source.subarray(i, Math.min(size, i + (1 << 20)));
    };
    const { bytes } = await s.put('ws3/big.bin', Readable.from(chunks()), 'application/octet-stream');
    expect(bytes).toBe(size);
    expect((await s.read('ws3/big.bin'))?.equals(source)).toBe(true);
  });

  it('stores a local file under two keys that stay whole when the file goes; a missing file stores nothing', async () => {
    const s = storage();
    const file = path.join(dir, `source-${label.length}.bin`);
    fs.writeFileSync(file, 'the bytes');
    await putLocalFile(s, 'ws4/designs/d/original.png', file, 'image/png');
    await putLocalFile(s, 'ws4/designs/d/print.png', file, 'image/png');
    fs.rmSync(file);
    await s.delete('ws4/designs/d/original.png');
    expect((await s.read('ws4/designs/d/print.png'))?.toString()).toBe('the bytes');
    await expect(putLocalFile(s, 'ws4/designs/e/print.png', file, 'image/png')).rejects.toThrow();
    expect(await s.list('ws4/')).toEqual(['ws4/designs/d/print.png']);
    // Local disk reads it in place.
    const local = await s.localPath?.('ws4/designs/d/print.png');
    if (local !== undefined) expect(fs.readFileSync(local as string, 'utf8')).toBe('the bytes');
    expect(await s.localPath?.('ws4/designs/missing.png')).toBe(s.localPath ? null : undefined);
  });

  it('refuses keys that could escape the root', async () => {
    await expect(storage().put('../evil', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Unsafe storage key/);
  });
});

it('the S3 storage used multipart upload for the large file and left no upload open', () => {
  expect(s3.objects.get('b/ws3/big.bin')?.body.length).toBe(S3_PART_BYTES * 2 + 12345);
  expect(s3.stats.multipartCompleted).toBe(1);
  expect(s3.uploads.size).toBe(0);
});
