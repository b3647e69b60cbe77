import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Rendered files kept on disk (they survive restarts): a file is read if it is there, otherwise rendered once,
 * even when several requests ask for it at the same time, and written under a temporary name then renamed, so a
 * half-written file is never served.
 */
export class DiskRenderCache {
  private readonly pending = new Map<string, Promise<Buffer>>();

  async getOrRender(file: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const existing = await fs.readFile(file).catch(() => null);
    if (existing) return existing;
    let job = this.pending.get(file);
    if (!job) {
      job = (async () => {
        const data = await render();
        await fs.mkdir(path.dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
        await fs.writeFile(tmp, data);
        await fs.rename(tmp, file);
        return data;
      })().finally(() => this.pending.delete(file));
      this.pending.set(file, job);
    }
    return job;
  }

  async has(file: string): Promise<boolean> {
    return fs.stat(file).then(
      () => true,
      () => false,
    );
  }
}
