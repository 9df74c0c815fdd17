import { useSyncExternalStore } from 'react';

/**
 * Layout settings of the right-side settings drawer (foundation.md §3 Settings), kept in local storage
 * on this browser. They are a device preference: signing out keeps them (docs/decisions.md).
 */
export interface LayoutSettings {
  /** Primary (theme) colour. */
  theme: string;
  /** 1 left navigation: 80 px bar + 200 px sidebar; 2 top menu. */
  topMenuSetting: 1 | 2;
  /** A row of tabs of the pages visited. */
  tagsView: boolean;
  /** The top bar stays at the top while the page scrolls. */
  fixedHeader: boolean;
  /** The product mark at the top of the navigation bar. */
  sidebarLogo: boolean;
  /** The browser tab shows the page's title. */
  dynamicTitle: boolean;
  /** Portal version: 1 progress, 2 service. */
  dashboardSetting: 1 | 2;
  menuColor: string;
  menuBackground: string;
  menuHoverBackground: string;
  menuSelectedBackground: string;
}

export const LAYOUT_SETTINGS_KEY = 'dzy-layout-settings';

/** Defaults (foundation.md §9): blue theme, left menu, progress version. */
export const DEFAULT_LAYOUT: LayoutSettings = {
  theme: '#1677ff',
  topMenuSetting: 1,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
  dynamicTitle: true,
  dashboardSetting: 1,
  menuColor: '#1f2329',
  menuBackground: '#ffffff',
  menuHoverBackground: '#f2f3f5',
  menuSelectedBackground: '#e6f4ff',
};

/** Theme colour presets offered in the drawer. */
export const THEME_PRESETS = [
  { color: '#1677ff', name: '拂晓蓝' },
  { color: '#13c2c2', name: '明青' },
  { color: '#52c41a', name: '极光绿' },
  { color: '#fa8c16', name: '日暮' },
  { color: '#f5222d', name: '薄暮' },
  { color: '#722ed1', name: '酱紫' },
  { color: '#2f54eb', name: '极客蓝' },
] as const;

/** Menu colour schemes; the four colours can also be set one by one. */
export const MENU_SCHEMES = [
  {
    name: '浅色',
    menuColor: '#1f2329',
    menuBackground: '#ffffff',
    menuHoverBackground: '#f2f3f5',
    menuSelectedBackground: '#e6f4ff',
  },
  {
    name: '深色',
    menuColor: '#bfcbd9',
    menuBackground: '#304156',
    menuHoverBackground: '#263445',
    menuSelectedBackground: '#1f2d3d',
  },
  {
    name: '藏青',
    menuColor: '#dbe4f3',
    menuBackground: '#001529',
    menuHoverBackground: '#0d2a4a',
    menuSelectedBackground: '#1677ff',
  },
] as const;

const HEX = /^#[0-9a-f]{6}$/i;

function sanitize(raw: unknown): LayoutSettings {
  const s = { ...DEFAULT_LAYOUT };
  if (!raw || typeof raw !== 'object') return s;
  const r = raw as Record<string, unknown>;
  for (const key of [
    'theme',
    'menuColor',
    'menuBackground',
    'menuHoverBackground',
    'menuSelectedBackground',
  ] as const) {
    if (typeof r[key] === 'string' && HEX.test(r[key])) s[key] = r[key];
  }
  for (const key of ['tagsView', 'fixedHeader', 'sidebarLogo', 'dynamicTitle'] as const) {
    if (typeof r[key] === 'boolean') s[key] = r[key];
  }
  if (r.topMenuSetting === 1 || r.topMenuSetting === 2) s.topMenuSetting = r.topMenuSetting;
  if (r.dashboardSetting === 1 || r.dashboardSetting === 2) s.dashboardSetting = r.dashboardSetting;
  return s;
}

function load(): LayoutSettings {
  try {
    return sanitize(JSON.parse(window.localStorage.getItem(LAYOUT_SETTINGS_KEY) ?? 'null'));
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
}

let current: LayoutSettings | null = null;
const listeners = new Set<() => void>();

export function getLayoutSettings(): LayoutSettings {
  current ??= load();
  return current;
}

export function setLayoutSettings(patch: Partial<LayoutSettings>): void {
  current = sanitize({ ...getLayoutSettings(), ...patch });
  try {
    window.localStorage.setItem(LAYOUT_SETTINGS_KEY, JSON.stringify(current));
  } catch {
    // Storage disabled: the settings last for this page.
  }
  for (const l of listeners) l();
}

export function resetLayoutSettings(): void {
  window.localStorage.removeItem(LAYOUT_SETTINGS_KEY);
  current = { ...DEFAULT_LAYOUT };
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    // Another tab changed them.
    if (e.key === LAYOUT_SETTINGS_KEY || e.key === null) {
      current = load();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useLayoutSettings(): LayoutSettings {
  return useSyncExternalStore(subscribe, getLayoutSettings, getLayoutSettings);
}
