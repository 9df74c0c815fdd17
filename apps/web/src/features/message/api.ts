import { getLastChatSessionCall, NEWS_POLL_MS, selectNewsCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { call } from '../../lib/request';

/** Query keys of the message feature; all start with 'message' (a news push refreshes them all). */
export const MESSAGE_KEYS = {
  all: ['message'] as const,
  news: ['message', 'news'] as const,
  list: (big: number, pageNo: number) => ['message', 'list', big, pageNo] as const,
  announcements: (pageNo: number) => ['message', 'announcements', pageNo] as const,
  settings: ['message', 'settings'] as const,
  hotlines: ['message', 'hotlines'] as const,
  chat: ['message', 'chat'] as const,
  adminAnnouncements: ['platform', 'announcements'] as const,
};

/** The bell's news: polled every 60 s, refreshed at once by a 'news' push. */
export function useNews() {
  return useQuery({
    queryKey: MESSAGE_KEYS.news,
    queryFn: () => call(selectNewsCall, {}, { handle: 'all' }),
    refetchInterval: NEWS_POLL_MS,
    refetchIntervalInBackground: true,
    staleTime: 5_000,
  });
}

/** The newest chat session waiting for the user (null when none). */
export function usePendingChat() {
  return useQuery({
    queryKey: MESSAGE_KEYS.chat,
    queryFn: () => call(getLastChatSessionCall, {}, { handle: 'all' }).catch(() => null),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

// --- the message centre's open state, shared by the bell and the user menu ---------------------

let centreOpen = false;
const centreListeners = new Set<() => void>();
const emit = () => {
  for (const l of centreListeners) l();
};

export function openMessageCenter() {
  centreOpen = true;
  emit();
}
export function closeMessageCenter() {
  centreOpen = false;
  emit();
}
export function useMessageCenterOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      centreListeners.add(l);
      return () => centreListeners.delete(l);
    },
    () => centreOpen,
  );
}
