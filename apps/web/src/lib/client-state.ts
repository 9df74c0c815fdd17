import { currentAppPath, isPublicPath, loginPathFor } from './paths';
import { queryClient } from './query-client';

/** Keys this client keeps in web storage; all start with this prefix. */
export const STORAGE_PREFIX = 'dzy:';

/** Query key of the session; kept by clearClientState so the route guards stay subscribed to it. */
export const SESSION_KEY = ['session'] as const;

let signedOutHere = false;

/**
 * Set when this tab signs out (before it tells the server), cleared by the next sign-in: a call still in
 * flight from the page being left then meets a 403 that says nothing new, and must not open the
 * 登录超时 dialog over the sign-in page.
 */
export function markSignedOut(out: boolean): void {
  signedOutHere = out;
}

export function isSignedOutHere(): boolean {
  return signedOutHere;
}

/**
 * Forgets everything the client holds about the signed-in user. The session query itself stays in the
 * cache (its observers would otherwise keep watching a removed query); callers set it right after.
 */
export function clearClientState(): void {
  const others = { predicate: (q: { queryKey: readonly unknown[] }) => q.queryKey[0] !== SESSION_KEY[0] };
  void queryClient.cancelQueries(others);
  queryClient.removeQueries(others);
  for (const storage of [window.localStorage, window.sessionStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith(STORAGE_PREFIX)) storage.removeItem(key);
  }
}

/** Full reload onto the login page, coming back to the current page after signing in. */
export function reloadToLogin(): void {
  const here = currentAppPath();
  const path = here.split('?')[0] ?? '/';
  window.location.hash = `#${loginPathFor(isPublicPath(path) ? null : here)}`;
  window.location.reload();
}
