import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Providers } from './providers';
import { AppRouter } from './router';
import './global.css';

/** Mounts the app; its first render replaces index.html's loading state inside #root. */
export function boot(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <Providers>
        <AppRouter />
      </Providers>
    </StrictMode>,
  );
}
