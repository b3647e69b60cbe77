import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** URL-safe random token of `bytes` bytes. */
export const randomToken = (bytes = 16) => randomBytes(bytes).toString('base64url');

/**
 * AES-256-GCM for third-party tokens at rest. Format: `v1.<iv>.<tag>.<ciphertext>`, base64url parts, so a key or
 * algorithm change can be recognised later.
 */
export class TokenCipher {
  private readonly key: Buffer;

  constructor(keyHex: string) {
    this.key = Buffer.from(keyHex, 'hex');
    if (this.key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** Whether `value` has this cipher's sealed form (rows written before a column was sealed hold clear text). */
  isSealed(value: string): boolean {
    return /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/.test(value);
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unrecognised token ciphertext');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
