import { useSyncExternalStore } from 'react';
import { shade } from './antd-theme';

/**
 * Layout settings of the right-side settings drawer (foundation.md §3 Settings), kept in local storage
 * on this browser. They are a device preference: signing out keeps them (docs/decisions/web.md).
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

/**
 * The agency's service-provider colour (features/brand, set by app/antd-root.tsx after sign-in): the theme of
 * a user who has not chosen one. A colour the user picked in the drawer wins (docs/decisions/account.md).
 */
let brandColor: string | null = null;
/** Whether the stored theme is the user's own choice (not just the default written with another setting). */
let themeChosen = false;

function sanitize(raw: unknown): LayoutSettings {
  const s = { ...DEFAULT_LAYOUT, theme: brandColor ?? DEFAULT_LAYOUT.theme };
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
    const raw = JSON.parse(window.localStorage.getItem(LAYOUT_SETTINGS_KEY) ?? 'null') as Record<
      string,
      unknown
    > | null;
    // Stored before this flag existed: only a colour other than the default was a choice.
    themeChosen =
      typeof raw?.theme === 'string' &&
      (raw.themeChosen === true || (raw.themeChosen === undefined && raw.theme !== DEFAULT_LAYOUT.theme));
    const s = sanitize(raw);
    return themeChosen ? s : branded(s);
  } catch {
    themeChosen = false;
    return branded({ ...DEFAULT_LAYOUT });
  }
}

/**
 * The provider's colour as the theme, and (on the default light menu) a light tint of it as the selected
 * entry's background in place of the default light blue. Applied when read, never stored.
 */
function branded(s: LayoutSettings): LayoutSettings {
  if (!brandColor) return { ...s, theme: DEFAULT_LAYOUT.theme };
  const tint = s.menuSelectedBackground === DEFAULT_LAYOUT.menuSelectedBackground ? shade(brandColor, 0.88) : null;
  return { ...s, theme: brandColor, ...(tint ? { menuSelectedBackground: tint } : {}) };
}

/** What is stored: the settings without what branded() derived from the provider's colour. */
function storable(s: LayoutSettings) {
  const tint = brandColor && !themeChosen ? shade(brandColor, 0.88) : null;
  return {
    ...s,
    ...(tint && s.menuSelectedBackground === tint
      ? { menuSelectedBackground: DEFAULT_LAYOUT.menuSelectedBackground }
      : {}),
    themeChosen,
  };
}

let current: LayoutSettings | null = null;
const listeners = new Set<() => void>();

export function getLayoutSettings(): LayoutSettings {
  current ??= load();
  return current;
}

export function setLayoutSettings(patch: Partial<LayoutSettings>): void {
  if (patch.theme !== undefined) themeChosen = true;
  current = sanitize({ ...getLayoutSettings(), ...patch });
  try {
    window.localStorage.setItem(LAYOUT_SETTINGS_KEY, JSON.stringify(storable(current)));
  } catch {
    // Storage disabled: the settings last for this page.
  }
  for (const l of listeners) l();
}

export function resetLayoutSettings(): void {
  window.localStorage.removeItem(LAYOUT_SETTINGS_KEY);
  themeChosen = false;
  current = branded({ ...DEFAULT_LAYOUT });
  for (const l of listeners) l();
}

/** Sets the provider colour (null: the platform's blue); the theme follows unless the user chose one. */
export function setBrandColor(color: string | null): void {
  const next = color && HEX.test(color) ? color : null;
  if (next === brandColor) return;
  brandColor = next;
  current = load();
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

/** The portal of each version (foundation.md §2: /dashboard progress, /newDashboard service; both 门户). */
export const PORTAL_PATHS = { 1: '/dashboard', 2: '/newDashboard' } as const;

/** Whether a path is one of the two portals. */
export function isPortalPath(pathname: string): boolean {
  return pathname === PORTAL_PATHS[1] || pathname === PORTAL_PATHS[2];
}

/** The portal the settings drawer's 门户版本 chose: where home (/, the logo, 门户 in the menu) leads. */
export function usePortalPath(): string {
  return PORTAL_PATHS[useLayoutSettings().dashboardSetting];
}
