import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from '../lib/query-client';
import { fetchSession, SESSION_KEY } from '../lib/session';
import { Providers } from './providers';
import { AppRouter } from './router';
import './global.css';

/** Mounts the app; its first render replaces index.html's loading state inside #root. */
export function boot(root: HTMLElement): void {
  // Every route starts with the session check (the guards wait for it): ask at once, before the first render,
  // rather than when the guard first renders. Same query as useSession, so the guard finds it under way.
  void queryClient.prefetchQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Number.POSITIVE_INFINITY });
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <AppRouter />
      </Providers>
    </StrictMode>,
  );
}
