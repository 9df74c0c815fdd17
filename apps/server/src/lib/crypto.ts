import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Stored client credentials (e-tax, personal tax, agent login): AES-256-GCM with the server's secret
 * key (SECRET_KEY, or the one generated into DATA_DIR), a random 12-byte IV per value.
 * A blob is `v1:` + base64(iv ‖ tag ‖ ciphertext); the empty string stays empty (nothing stored).
 */
const VERSION = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Cipher {
  encrypt(text: string): string;
  decrypt(blob: string): string;
}

export function createCipher(key: Buffer): Cipher {
  if (key.length !== 32) throw new Error('the credential key must be 32 bytes');
  return {
    encrypt(text) {
      if (text === '') return '';
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    decrypt(blob) {
      if (blob === '') return '';
      if (!blob.startsWith(VERSION)) throw new Error('unknown credential blob version');
      const raw = Buffer.from(blob.slice(VERSION.length), 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('credential blob too short');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
  };
}

const ciphers = new WeakMap<Buffer, Cipher>();

/** The cipher for a key, made once per key. */
function cipherFor(key: Buffer): Cipher {
  let c = ciphers.get(key);
  if (!c) {
    c = createCipher(key);
    ciphers.set(key, c);
  }
  return c;
}

/** Encrypts with the given key (deps.config.secretKey). */
export const encrypt = (key: Buffer, text: string): string => cipherFor(key).encrypt(text);
/** Decrypts a blob made by encrypt; throws when it was changed or made with another key. */
export const decrypt = (key: Buffer, blob: string): string => cipherFor(key).decrypt(blob);

/**
 * Long values are shown as their first 3 characters, ****, and their last 4 (tax-bureau.md: "Long
 * strings are masked as first 3 characters, ****, last 4"); values of 7 characters or fewer, which
 * that would give away, are all stars.
 */
export function mask(value: string): string {
  const chars = Array.from(value);
  if (chars.length === 0) return '';
  if (chars.length <= 7) return '*'.repeat(chars.length);
  return `${chars.slice(0, 3).join('')}****${chars.slice(-4).join('')}`;
}

/** What a stored password is shown as: six stars when set, nothing when not (no length given away). */
export const maskSecret = (stored: string): string => (stored === '' ? '' : '******');
