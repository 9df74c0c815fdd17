import type { OrgType } from '@dzy/shared';

/**
 * Menu entries of the settings areas carry a red dot (foundation.md §2): customer settings (khsz),
 * contract settings (htsz), charge settings (sfsz) and permission settings (systemSetting, rootSetting,
 * and here 角色权限), except for an accounting factory (orgType kjgc).
 */
const SETTINGS_KEYS = new Set(['khsz', 'htsz', 'sfsz', 'systemSetting', 'rootSetting']);
const PERMISSION_PAGES = new Set(['/nested/manage/role']);

export function settingsDot(path: string, orgType: OrgType | null | undefined): boolean {
  if (orgType === 'kjgc') return false;
  if (PERMISSION_PAGES.has(path)) return true;
  const last = path.split('/').filter(Boolean).at(-1) ?? '';
  return SETTINGS_KEYS.has(last);
}
