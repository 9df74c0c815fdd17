/**
 * The menu and permission registry (foundation.md §3, §6; business.md §6), RuoYi's vocabulary typed:
 * 'M' directory, 'C' page, 'F' button. Ids are the spec's where it names them.
 * A permission key is `module:thing:action`; `*:*:*` alone means everything.
 */
export type MenuType = 'M' | 'C' | 'F';

export interface MenuDef {
  id: number;
  parentId: number;
  type: MenuType;
  title: string;
  /** Route path of a page ('C'), or the path prefix of a directory ('M'). */
  path?: string;
  /** Permission a page or button needs; a page without one is open to every signed-in user. */
  perm?: string;
  /** Icon name for the navigation (antd icon component name). */
  icon?: string;
  /** Only administrators hold it unless a role grants it. */
  adminOnly?: boolean;
}

export const MENUS = [
  { id: 1, parentId: 0, type: 'C', title: '门户', path: '/dashboard', icon: 'HomeOutlined' },
  { id: 101, parentId: 1, type: 'F', title: '查看机构统计', perm: 'dashboard:counts:view' },
  { id: 10, parentId: 0, type: 'M', title: '设置', path: '/nested', icon: 'SettingOutlined' },
  { id: 223, parentId: 10, type: 'C', title: '个人设置', path: '/nested/menu1/baseInfo' },
  { id: 224, parentId: 10, type: 'C', title: '修改密码', path: '/nested/menu1/changePassword' },
] as const satisfies readonly MenuDef[];

export type PermKey = Extract<(typeof MENUS)[number], { perm: string }>['perm'];
export const ALL_PERMS = '*:*:*';

/** The permissions a member holds before any role is given: every non-admin menu and button. */
export const DEFAULT_STAFF_PERMS: readonly PermKey[] = MENUS.flatMap((m) =>
  'perm' in m && !('adminOnly' in m && m.adminOnly) ? [m.perm] : [],
);

/** A permission is held when the list has `*:*:*` or any of the required ids (foundation.md §5). */
export function hasPerm(held: readonly string[], required: string | readonly string[]): boolean {
  if (held.includes(ALL_PERMS)) return true;
  const need = typeof required === 'string' ? [required] : required;
  if (need.length === 0) throw new Error('请设置操作权限标签值');
  return need.some((p) => held.includes(p));
}
