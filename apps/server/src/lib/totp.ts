import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): HMAC-SHA-1, 30-second steps, 6 digits — what
 * every authenticator app computes from an otpauth:// URI. Built on node:crypto only.
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock difference accepted either way (one step: up to 30 s early or late). */
export const TOTP_SKEW_STEPS = 1;

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) throw new Error('invalid base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation) as base32. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** The step a moment falls in. */
export const stepAt = (ms: number) => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);

/** HOTP (RFC 4226) of a counter, with the hash RFC 6238 allows (its test vectors use all three). */
export function hotp(key: Buffer, counter: number, digits = TOTP_DIGITS, algo: 'sha1' | 'sha256' | 'sha512' = 'sha1') {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algo, key).update(msg).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0xf;
  const bin = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return bin.toString().padStart(digits, '0');
}

/** The code of a base32 secret at a moment. */
export const totpAt = (secret: string, ms: number) => hotp(base32Decode(secret), stepAt(ms));

/**
 * The step a code matches within ±TOTP_SKEW_STEPS of `now`, later than `afterStep` (a step already used
 * is refused: a code seen once cannot be replayed), or null.
 */
export function matchStep(secret: string, code: string, now: number, afterStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secret);
  const at = stepAt(now);
  const given = Buffer.from(code);
  let found: number | null = null;
  for (let d = -TOTP_SKEW_STEPS; d <= TOTP_SKEW_STEPS; d++) {
    const step = at + d;
    if (afterStep !== null && step <= afterStep) continue;
    // Compare every candidate in constant time; keep looking so timing does not tell which matched.
    if (timingSafeEqual(Buffer.from(hotp(key, step)), given) && found === null) found = step;
  }
  return found;
}

/** The otpauth:// URI an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUri(secret: string, account: string, issuer = '代账云'): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const q = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${q.toString()}`;
}
