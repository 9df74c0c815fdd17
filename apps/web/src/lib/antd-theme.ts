import type { ThemeConfig } from 'antd';

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

/**
 * One theme for the whole product: antd's blue, calm greys, 50 px top bar, 200 px sidebar. Only a type is
 * imported from antd here: the sign-in page, which loads before antd, shares nothing else with it.
 */
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

/** The message (toast) settings of the app: at most three at once, below the top bar. */
export const MESSAGE_CONFIG = { maxCount: 3, top: 64 } as const;
