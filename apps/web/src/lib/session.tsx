import { logoutCall, type SessionInfo, sessionCall } from '@dzy/shared/wire';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { clearClientState, markSignedOut, SESSION_KEY } from './client-state';
import { queryClient } from './query-client';
import { call } from './request';

export { SESSION_KEY };

/** The current session, or null when nobody is signed in (a quiet answer, not a refusal). */
export async function fetchSession(): Promise<SessionInfo | null> {
  const info = (await call(sessionCall, {})) ?? null;
  if (info) markSignedOut(false);
  return info;
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Number.POSITIVE_INFINITY });
}

/** How the guard leaves the signed-in area after signOut: where to and what to tell the user. */
export interface SignOutExit {
  /** Shown on the login page until the next sign-in. */
  notice?: string;
  /** Come back to the current page after signing in again. */
  keepRedirect?: boolean;
  /** The sign-in page to go to (a provider's /login/{fwsid}); /login when absent. */
  loginPath?: string;
}

let pendingExit: SignOutExit | null = null;

export function getSignOutExit(): SignOutExit | null {
  return pendingExit;
}

/**
 * The other tabs of this browser share the session cookie: a sign-out or a sign-in as someone else in one
 * tab is told to the rest at once, so none keeps showing the previous user's client data.
 */
type TabNews = { kind: 'signed-out' } | { kind: 'signed-in'; userId: number };
const tabs = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('dzy-session');

function forgetHere(exit: SignOutExit): void {
  markSignedOut(true);
  pendingExit = exit;
  clearClientState();
  queryClient.setQueryData(SESSION_KEY, null);
}

tabs?.addEventListener('message', (e: MessageEvent<TabNews>) => {
  const mine = queryClient.getQueryData<SessionInfo | null>(SESSION_KEY);
  if (e.data.kind === 'signed-out') {
    if (mine) forgetHere({ notice: '您已在其他页面退出登录。' });
  } else if (mine?.token.id !== e.data.userId) {
    // Someone (else) signed in elsewhere: read the session the cookie now holds.
    clearClientState();
    void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
  }
});

/** Stores a fresh session (after login or registration), dropping anything cached for a previous user. */
export function setSignedIn(info: SessionInfo): void {
  markSignedOut(false);
  pendingExit = null;
  clearClientState();
  queryClient.setQueryData(SESSION_KEY, info);
  tabs?.postMessage({ kind: 'signed-in', userId: info.token.id } satisfies TabNews);
}

/** Ends the session on the server (best effort) and in the client; the route guard then shows /login. */
export async function signOut(exit: SignOutExit = {}): Promise<void> {
  markSignedOut(true);
  try {
    await call(logoutCall, {}, { handle: 'all' });
  } catch {
    // Already signed out or unreachable: the client forgets the session either way.
  }
  forgetHere(exit);
  tabs?.postMessage({ kind: 'signed-out' } satisfies TabNews);
}

const SessionContext = createContext<SessionInfo | null>(null);

export const SessionProvider = SessionContext.Provider;

/** The signed-in user; only inside the signed-in area, where the guard guarantees a session. */
export function useSessionInfo(): SessionInfo {
  const info = useContext(SessionContext);
  if (!info) throw new Error('useSessionInfo is only available inside the signed-in area');
  return info;
}
