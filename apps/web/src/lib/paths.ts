/** Routes anyone may open without signing in (foundation.md §2, the ones this client has). */
export const PUBLIC_PATHS = ['/login', '/forgetPassword', '/agreement', '/privacy', '/404', '/dev/outbox'] as const;

export const HOME_PATH = '/dashboard';
export const LOGIN_PATH = '/login';

export function isPublicPath(pathname: string): boolean {
  return (PUBLIC_PATHS as readonly string[]).includes(pathname);
}

/** /login with the page to come back to and a timestamp (foundation.md §2). */
export function loginPathFor(redirect: string | null): string {
  const params = new URLSearchParams();
  if (redirect && redirect !== '/' && !redirect.startsWith(LOGIN_PATH)) params.set('redirect', redirect);
  params.set('t', String(Date.now()));
  return `${LOGIN_PATH}?${params.toString()}`;
}

/** A redirect target from the query string, only if it is a path inside this app. */
export function safeRedirect(raw: string | null): string | null {
  if (!raw?.startsWith('/') || raw.startsWith('//') || raw.startsWith(LOGIN_PATH)) return null;
  return raw;
}

/** The current in-app location (hash routing), for building a redirect outside React. */
export function currentAppPath(): string {
  const hash = window.location.hash.replace(/^#/, '');
  return hash || '/';
}
