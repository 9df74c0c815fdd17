import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { MESSAGE_CONFIG, theme } from '../lib/antd-theme';
import { bindFeedback } from '../lib/feedback';

dayjs.locale('zh-cn');

/** Lets the request client use the themed, context-aware message and modal instances while this is shown. */
function FeedbackBridge() {
  const { message, modal } = App.useApp();
  useEffect(() => bindFeedback({ message, modal }), [message, modal]);
  return null;
}

/**
 * Every route but the sign-in page: antd's theme, Chinese locale and App (toasts, dialogs). A route of its
 * own, loaded on the way to the first page that uses antd, so that the sign-in page loads none of it.
 */
export function AntdRoot() {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <App message={MESSAGE_CONFIG}>
        <FeedbackBridge />
        <Outlet />
      </App>
    </ConfigProvider>
  );
}
