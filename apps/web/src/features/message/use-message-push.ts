import { type ChatSession, chatSessionSchema } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onPush } from '../../lib/push';
import { useSessionInfo } from '../../lib/session';
import { MESSAGE_KEYS } from './api';

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
      const parsed = chatSessionSchema.safeParse(data);
      // A session for another agency of the user shows when they switch to it.
      if (parsed.success && data.agencyId === agencyId)
        queryClient.setQueryData<ChatSession>(MESSAGE_KEYS.chat, parsed.data);
    });
    return () => {
      offNews();
      offChat();
    };
  }, [queryClient, agencyId]);
}
