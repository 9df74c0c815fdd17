import { getRoutersCall, hasPerm, MENUS, type MenuDef, type MenuNode } from '@dzy/shared';
import { type ServerModule, serve } from '../../plugins/calls.js';

/** The menu tree a holder of `perms` may see: pages they hold (or that need none), directories that keep a page. */
export function menuTreeFor(perms: readonly string[], parentId = 0): MenuNode[] {
  return (MENUS as readonly MenuDef[])
    .filter((m) => m.parentId === parentId && m.type !== 'F' && m.path)
    .flatMap((m): MenuNode[] => {
      const children = menuTreeFor(perms, m.id);
      if (m.type === 'M' && children.length === 0) return [];
      if (m.type === 'C' && m.perm && !hasPerm(perms, m.perm)) return [];
      return [{ id: m.id, type: m.type as 'M' | 'C', title: m.title, path: m.path ?? '', icon: m.icon, children }];
    });
}

export const menuModule: ServerModule = {
  name: 'menu',
  calls: [
    serve(getRoutersCall, async ({ session }) => ({
      menus: menuTreeFor(session.perms),
      buttons: session.perms,
    })),
  ],
};
