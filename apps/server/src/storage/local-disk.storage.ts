import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type Storage } from './storage';

/** Files under one folder. Writes go to a temporary name first and are renamed into place when complete. */
export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable | Buffer, _contentType: string): Promise<{ bytes: number }> {
    return this.writeInPlace(key, (temp) =>
      pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, fs.createWriteStream(temp, { flags: 'wx' })),
    );
  }

  async putFile(key: string, filePath: string, _contentType: string): Promise<{ bytes: number }> {
    // A second name for the same bytes: nothing is copied. Another file system (or one without hard links): a copy.
    return this.writeInPlace(key, (temp) =>
      fsp.link(filePath, temp).catch(() => fsp.copyFile(filePath, temp, fs.constants.COPYFILE_EXCL)),
    );
  }

  /** `write` fills a temporary name beside the key's file, which is then renamed into place (or removed). */
  private async writeInPlace(key: string, write: (temp: string) => Promise<unknown>): Promise<{ bytes: number }> {
    const target = this.pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await write(temp);
      await fsp.rename(temp, target);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    const { size } = await fsp.stat(target);
    return { bytes: size };
  }

  async localPath(key: string): Promise<string | null> {
    const file = this.pathOf(key);
    try {
      await fsp.access(file);
      return file;
    } catch {
      return null;
    }
  }

  async get(key: string) {
    const file = this.pathOf(key);
    try {
      const { size } = await fsp.stat(file);
      return { body: fs.createReadStream(file), bytes: size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async read(key: string) {
    try {
      return await fsp.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string) {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string) {
    const base = path.join(this.root, prefix);
    const found: string[] = [];
    const walk = async (dir: string) => {
      let entries: fs.Dirent[];
      try {
        entries = await fsp.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else found.push(path.relative(this.root, full).split(path.sep).join('/'));
      }
    };
    // A prefix may end inside a file name; walk its folder and filter.
    await walk(prefix.endsWith('/') || prefix === '' ? base : path.dirname(base));
    return found.filter((key) => key.startsWith(prefix)).sort();
  }
}
