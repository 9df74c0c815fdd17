import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { type ReactNode, useEffect } from 'react';
import { bindFeedback } from '../lib/feedback';
import { queryClient } from '../lib/query-client';

dayjs.locale('zh-cn');

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans SC', 'Helvetica Neue', Arial, sans-serif";

/**
 * No animations for people who asked their system for reduced motion, nor for a browser driven by automation
 * (the Chromium journeys): a collapsing or zooming element has no size until its motion ends, and on a busy
 * machine a validation message that was shown could still read as absent.
 */
const calm =
  typeof window !== 'undefined' &&
  (window.navigator.webdriver || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true);

/** One theme for the whole product: antd's blue, calm greys, 50 px top bar, 200 px sidebar. */
export const theme: ThemeConfig = {
  token: {
    motion: !calm,
    colorPrimary: '#1677ff',
    colorInfo: '#1677ff',
    colorBgLayout: '#f0f2f5',
    borderRadius: 6,
    fontFamily: FONT_FAMILY,
  },
  components: {
    Layout: {
      headerHeight: 50,
      headerBg: '#ffffff',
      headerPadding: '0 16px 0 0',
      siderBg: '#ffffff',
      bodyBg: '#f0f2f5',
    },
    Menu: {
      itemBorderRadius: 6,
      itemMarginInline: 8,
      subMenuItemBg: '#ffffff',
    },
    Card: {
      headerFontSize: 16,
    },
  },
};

/** Lets the request client use the themed, context-aware message and modal instances. */
function FeedbackBridge() {
  const { message, modal } = App.useApp();
  useEffect(() => bindFeedback({ message, modal }), [message, modal]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme}>
      <App message={{ maxCount: 3, top: 64 }}>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
