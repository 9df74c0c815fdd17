/**
 * The provider address this tab signed in at (/login/{fwsid}), for the theme rule of foundation.md §5: an
 * agency whose provider (its domain code) differs from the address it signed in at is told
 * 账号异常，请联系服务商。 and signed out. Kept per tab, without dependencies: the sign-in page sets it.
 */
const KEY = 'dzy-sign-in-fwsid';

/** Remembers the address of the sign-in page: a provider's fwsid, or none for the platform's /login. */
export function rememberSignInAddress(fwsid: string | undefined): void {
  try {
    if (fwsid) window.sessionStorage.setItem(KEY, fwsid.toLowerCase());
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage disabled: no provider address is known, the platform's applies.
  }
}

/** The provider address this tab signed in at, or null for the platform's own. */
export function signInAddress(): string | null {
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/**
 * Whether the agency's provider differs from the address signed in at. The platform's own /login serves
 * every agency; a provider's address serves only the agencies of that provider.
 */
export function addressMismatch(signedInAt: string | null, agencyFwsid: string | null): boolean {
  return signedInAt !== null && signedInAt !== agencyFwsid;
}
