import { useQuery } from '@tanstack/react-query';

/** One SMS the development server pretended to send. */
export interface OutboxMessage {
  id: number | string;
  phone: string;
  content: string;
  createdAt: string;
}

/** GET /api/dev/outbox; null when the server has no outbox (production answers 404). */
export async function fetchDevOutbox(): Promise<OutboxMessage[] | null> {
  const res = await fetch('/api/dev/outbox', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (res.status !== 200) return null;
  const body = (await res.json()) as { code?: number; data?: OutboxMessage[] };
  return body.code === 200 && Array.isArray(body.data) ? body.data : null;
}

export const DEV_OUTBOX_KEY = ['dev-outbox'] as const;

export function useDevOutbox(refetchInterval?: number) {
  return useQuery({
    queryKey: DEV_OUTBOX_KEY,
    queryFn: () => fetchDevOutbox().catch(() => null),
    refetchInterval,
    staleTime: 0,
  });
}
