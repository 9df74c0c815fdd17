import { getZtByFwsidCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { App, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect, useMemo } from 'react';
import { Outlet } from 'react-router';
import { brandTheme, MESSAGE_CONFIG, theme } from '../lib/antd-theme';
import { bindFeedback } from '../lib/feedback';
import { setBrandColor } from '../lib/layout-settings';
import { call } from '../lib/request';
import { useSession } from '../lib/session';

dayjs.locale('zh-cn');

/** Lets the request client use the themed, context-aware message and modal instances while this is shown. */
function FeedbackBridge() {
  const { message, modal } = App.useApp();
  useEffect(() => bindFeedback({ message, modal }), [message, modal]);
  return null;
}

/**
 * The signed-in agency's service-provider colour: the shell's theme unless the user chose one in 布局设置
 * (lib/layout-settings.ts), and antd's primary colour around every page. Back to the platform's on sign-out.
 */
function useProviderColor(): string | null {
  const signedIn = !!useSession().data;
  // The same query as the header's logo (features/brand/agency-brand.tsx), asked only once signed in.
  const brand = useQuery({
    queryKey: ['agency-brand'],
    queryFn: () => call(getZtByFwsidCall, {}, { handle: 'all' }),
    staleTime: 30 * 60_000,
    retry: 1,
    enabled: signedIn,
  });
  const color = signedIn ? (brand.data?.primaryColor ?? null) : null;
  useEffect(() => setBrandColor(color), [color]);
  return color;
}

/**
 * Every route but the sign-in page: antd's theme, Chinese locale and App (toasts, dialogs). A route of its
 * own, loaded on the way to the first page that uses antd, so that the sign-in page loads none of it.
 */
export function AntdRoot() {
  const color = useProviderColor();
  const themed = useMemo(() => {
    const b = brandTheme(color);
    return b.token ? { ...theme, token: { ...theme.token, ...b.token } } : theme;
  }, [color]);
  return (
    <ConfigProvider locale={zhCN} theme={themed}>
      <App message={MESSAGE_CONFIG}>
        <FeedbackBridge />
        <Outlet />
      </App>
    </ConfigProvider>
  );
}
