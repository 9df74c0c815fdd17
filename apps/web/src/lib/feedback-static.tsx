import { ConfigProvider, Modal, message } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { MESSAGE_CONFIG, theme } from './antd-theme';
import type { FeedbackApi } from './feedback';

// antd's static toasts and dialogs render outside the app's tree: give them the app's theme and language.
ConfigProvider.config({
  holderRender: (children) => (
    <ConfigProvider locale={zhCN} theme={theme}>
      {children}
    </ConfigProvider>
  ),
});
message.config(MESSAGE_CONFIG);

/** For lib/feedback.ts while no antd area is shown (the sign-in page): loaded on its first toast or dialog. */
export const staticFeedback: FeedbackApi = { message, modal: Modal };
