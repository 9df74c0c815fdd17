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

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** A #rrggbb colour mixed with white (amount > 0) or black (amount < 0), amount in -1..1. */
export function shade(hex: string, amount: number): string {
  if (!HEX_COLOR.test(hex)) return hex;
  const n = Number.parseInt(hex.slice(1), 16);
  const to = amount > 0 ? 255 : 0;
  const a = Math.abs(amount);
  const mix = (c: number) => Math.round(c + (to - c) * a);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map(mix);
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * A service provider's colour (features/brand) as CSS variables, for what is drawn without antd: the sign-in
 * page's buttons, tabs, links and inputs (auth.css reads them, with antd's blue as the fallback).
 */
export function brandCssVars(color: string | null | undefined): Record<string, string> {
  if (!color || !HEX_COLOR.test(color)) return {};
  return {
    '--dzy-primary': color,
    '--dzy-primary-hover': shade(color, 0.2),
    '--dzy-primary-active': shade(color, -0.15),
  };
}

/** A provider's colour as antd tokens (the primary, info and link colours), or nothing for the platform's. */
export function brandTheme(color: string | null | undefined): ThemeConfig {
  if (!color || !HEX_COLOR.test(color)) return {};
  return { token: { colorPrimary: color, colorInfo: color, colorLink: color } };
}
