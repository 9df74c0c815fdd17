import { GRANTABLE_PERMS, MENUS, type MenuDef } from '@dzy/shared';
import type { TreeDataNode } from 'antd';

const GRANTABLE = new Set<string>(GRANTABLE_PERMS);

/**
 * The permission registry as a tree (the same one roles use), with a box on every entry a key may hold:
 * administrator-only and operator entries are left out (a key can never hold them).
 */
export function keyPermTree(): TreeDataNode[] {
  const menus = MENUS as readonly MenuDef[];
  const build = (parentId: number): TreeDataNode[] =>
    menus
      .filter((m) => m.parentId === parentId && !m.operatorOnly && !m.adminOnly)
      .map((m) => {
        const children = build(m.id);
        const grantable = m.perm !== undefined && GRANTABLE.has(m.perm);
        return { key: grantable ? (m.perm as string) : `menu:${m.id}`, title: m.title, children, grantable };
      })
      .filter((n) => n.grantable || n.children.length > 0)
      .map(({ grantable: _, ...n }) => n);
  return build(0);
}

/** The permission keys among checked tree keys (directories are not permissions). */
export const permsOf = (keys: readonly (string | number)[]) => keys.map(String).filter((k) => GRANTABLE.has(k));

/** The title of each permission, for the list's tags. */
export const PERM_TITLES: ReadonlyMap<string, string> = new Map(
  (MENUS as readonly MenuDef[]).flatMap((m) => (m.perm ? [[m.perm, m.title] as const] : [])),
);
