import type { ThemeConfig } from 'antd';
import type { LayoutSettings } from '../../lib/layout-settings';

/** Relative luminance of a #rrggbb colour (0 black … 1 white). */
function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** The text colour of a selected menu entry: the theme colour on light, white on dark backgrounds. */
export const selectedTextColor = (s: LayoutSettings) =>
  luminance(s.menuSelectedBackground) < 0.35 ? '#ffffff' : s.theme;

/** The layout settings as antd theme tokens for the signed-in shell. */
export function shellTheme(s: LayoutSettings): ThemeConfig {
  const dark = luminance(s.menuBackground) < 0.35;
  return {
    token: { colorPrimary: s.theme, colorInfo: s.theme, colorLink: s.theme },
    components: {
      Layout: { siderBg: s.menuBackground },
      Menu: {
        itemColor: s.menuColor,
        itemBg: s.menuBackground,
        subMenuItemBg: s.menuBackground,
        itemHoverBg: s.menuHoverBackground,
        itemHoverColor: dark ? '#ffffff' : s.menuColor,
        itemSelectedBg: s.menuSelectedBackground,
        itemSelectedColor: selectedTextColor(s),
        itemActiveBg: s.menuHoverBackground,
        groupTitleColor: s.menuColor,
        popupBg: s.menuBackground,
        horizontalItemSelectedColor: s.theme,
        horizontalItemHoverColor: s.theme,
      },
    },
  };
}

/** CSS variables for the parts of the shell drawn without antd (the 80 px bar, tags). */
export function shellVars(s: LayoutSettings): Record<string, string> {
  return {
    '--dzy-menu-color': s.menuColor,
    '--dzy-menu-bg': s.menuBackground,
    '--dzy-menu-hover-bg': s.menuHoverBackground,
    '--dzy-menu-selected-bg': s.menuSelectedBackground,
    '--dzy-menu-selected-color': selectedTextColor(s),
    '--dzy-theme': s.theme,
  };
}
