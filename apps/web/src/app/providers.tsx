import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from '../lib/query-client';

/**
 * What every route shares: the query client. antd's theme, locale and App live in app/antd-root.tsx, a
 * route around every page but the sign-in page, which is drawn without antd (docs/decisions-12-first-load.md).
 */
export function Providers({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
