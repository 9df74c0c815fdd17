import { CHAT_PROMPT, CHAT_STATUS, type ChatSession, updateChatSessionCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { MESSAGE_KEYS, usePendingChat } from '../api';

/**
 * The incoming chat-session prompt (foundation.md §2, §4): 您当前有会话待接受，是否接入. Agree marks it
 * 2 accepted and opens its address; refuse marks it 3 refused. Sessions arrive by push or on load.
 */
export function ChatPrompt() {
  const pending = usePendingChat();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<2 | 3 | null>(null);
  const chat: ChatSession | null | undefined = pending.data;

  const answer = async (status: 2 | 3) => {
    if (!chat) return;
    setBusy(status);
    // Open the window inside the click so the browser does not block it; point it at the chat after.
    const win = status === CHAT_STATUS.accepted && chat.url ? window.open('about:blank', '_blank') : null;
    try {
      await call(updateChatSessionCall, { id: chat.id, status }, { handle: [500] });
      if (win) {
        win.opener = null;
        win.location.href = chat.url;
      } else if (status === CHAT_STATUS.accepted) toast('success', '已接入会话，客服将与您联系');
      else toast('info', '已拒绝该会话');
    } catch (err) {
      win?.close();
      // Chat failures show the server's message or 接口异常 (foundation.md §8).
      if (err instanceof ApiError && !err.handled) toast('error', err.message || '接口异常');
    } finally {
      setBusy(null);
      queryClient.setQueryData(MESSAGE_KEYS.chat, null);
    }
  };

  return (
    <Modal
      open={!!chat}
      title="会话邀请"
      width={400}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      footer={
        <>
          <Button loading={busy === 3} disabled={busy !== null} onClick={() => void answer(3)}>
            拒绝
          </Button>
          <Button type="primary" loading={busy === 2} disabled={busy !== null} onClick={() => void answer(2)}>
            接入
          </Button>
        </>
      }
    >
      <Typography.Paragraph>{CHAT_PROMPT}</Typography.Paragraph>
      {chat?.qymc && <Typography.Text type="secondary">咨询企业：{chat.qymc}</Typography.Text>}
    </Modal>
  );
}
