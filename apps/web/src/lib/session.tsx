import { logoutCall, type SessionInfo, sessionCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { clearClientState, SESSION_KEY } from './client-state';
import { queryClient } from './query-client';
import { call } from './request';

export { SESSION_KEY };

/** The current session, or null when nobody is signed in (a quiet answer, not a refusal). */
export async function fetchSession(): Promise<SessionInfo | null> {
  return (await call(sessionCall, {})) ?? null;
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
}

let pendingExit: SignOutExit | null = null;

export function getSignOutExit(): SignOutExit | null {
  return pendingExit;
}

/** Stores a fresh session (after login or registration), dropping anything cached for a previous user. */
export function setSignedIn(info: SessionInfo): void {
  pendingExit = null;
  clearClientState();
  queryClient.setQueryData(SESSION_KEY, info);
}

/** Ends the session on the server (best effort) and in the client; the route guard then shows /login. */
export async function signOut(exit: SignOutExit = {}): Promise<void> {
  try {
    await call(logoutCall, {}, { handle: 'all' });
  } catch {
    // Already signed out or unreachable: the client forgets the session either way.
  }
  pendingExit = exit;
  clearClientState();
  queryClient.setQueryData(SESSION_KEY, null);
}

const SessionContext = createContext<SessionInfo | null>(null);

export const SessionProvider = SessionContext.Provider;

/** The signed-in user; only inside the signed-in area, where the guard guarantees a session. */
export function useSessionInfo(): SessionInfo {
  const info = useContext(SessionContext);
  if (!info) throw new Error('useSessionInfo is only available inside the signed-in area');
  return info;
}
