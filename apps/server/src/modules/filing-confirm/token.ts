import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The 客户确认 link's token: `<agency>.<confirmation>.<expiry>.<nonce>.<signature>`, every part
 * base64url-safe. The signature is HMAC-SHA256 (base64url, 43 characters) over the first four parts with
 * a key derived from the server's secret key (SECRET_KEY), so a token cannot be made or changed without
 * it; the nonce (16 random bytes, kept on the confirmation row) makes each link unguessable and lets a
 * newer link replace an older one; the expiry is in seconds since 1970. The agency travels in the token
 * because a public call has no tenant of its own: it is trusted only once the signature holds.
 */
export interface SbqrClaims {
  agencyId: number;
  id: number;
  /** Seconds since the epoch. */
  expires: number;
  nonce: string;
}

const TOKEN = /^(\d{1,10})\.(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const keys = new WeakMap<Buffer, Buffer>();

/** A key of its own for the links (never the credential key itself). */
function linkKey(secret: Buffer): Buffer {
  let k = keys.get(secret);
  if (!k) {
    k = createHmac('sha256', secret).update('dzy:sbqr-link:v1').digest();
    keys.set(secret, k);
  }
  return k;
}

const signature = (secret: Buffer, payload: string) =>
  createHmac('sha256', linkKey(secret)).update(payload).digest('base64url');

export const newNonce = () => randomBytes(16).toString('base64url');

export function signSbqrToken(secret: Buffer, c: SbqrClaims): string {
  const payload = `${c.agencyId}.${c.id}.${c.expires}.${c.nonce}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** The claims of a token whose signature holds, else null (malformed or changed). Expiry is the caller's. */
export function verifySbqrToken(secret: Buffer, token: string): SbqrClaims | null {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const [, a, id, exp, nonce, sig] = m as unknown as [string, string, string, string, string, string];
  const want = Buffer.from(signature(secret, `${a}.${id}.${exp}.${nonce}`));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  return { agencyId: Number(a), id: Number(id), expires: Number(exp), nonce };
}
