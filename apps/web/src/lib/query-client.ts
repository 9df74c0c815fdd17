import { QueryClient } from '@tanstack/react-query';

/** API failures are shown by the request client; retrying them would only repeat the toast. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
