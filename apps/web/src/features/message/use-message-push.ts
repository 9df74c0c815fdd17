import type { ChatSession } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onPush } from '../../lib/push';
import { useSessionInfo } from '../../lib/session';
import { MESSAGE_KEYS } from './api';

/**
 * A pushed chat session has the shape of chatSessionSchema (message.ts). Checked by hand: the shell loads
 * this on every page, and parsing with the schema would bring zod into the shell (issue 30 point 5).
 */
function isChatSession(data: unknown): data is ChatSession {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d.id === 'number' &&
    typeof d.status === 'number' &&
    ['qysh', 'qymc', 'url', 'createTime'].every((k) => typeof d[k] === 'string')
  );
}

/**
 * Routes pushes to the message feature: 'news' refreshes the bell and the open message centre at once
 * (without waiting for the 60 s poll); 'chat' raises the incoming-session prompt.
 */
export function useMessagePush() {
  const queryClient = useQueryClient();
  const session = useSessionInfo();
  const agencyId = session.kjgcDlsId ?? session.orgId;
  useEffect(() => {
    const offNews = onPush('news', () => {
      void queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.all });
    });
    const offChat = onPush('chat', (data) => {
      // A session for another agency of the user shows when they switch to it.
      if (data.agencyId === agencyId && isChatSession(data)) {
        const { id, qysh, qymc, url, status, createTime } = data;
        queryClient.setQueryData<ChatSession>(MESSAGE_KEYS.chat, { id, qysh, qymc, url, status, createTime });
      }
    });
    return () => {
      offNews();
      offChat();
    };
  }, [queryClient, agencyId]);
}
