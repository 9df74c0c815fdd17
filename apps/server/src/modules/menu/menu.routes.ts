import {
  getRoutersCall,
  hasPerm,
  MENU_WHITELIST_GATES,
  MENUS,
  type MenuDef,
  type MenuNode,
  PERM_WHITELIST_GATES,
} from '@dzy/shared';
import { whitelistsFor } from '../../lib/whitelist.js';
import { type ServerModule, serve } from '../../plugins/calls.js';

/** The menu tree a holder of `perms` may see: pages they hold (or that need none), directories that keep a page. */
export function menuTreeFor(perms: readonly string[], parentId = 0, lists?: ReadonlySet<string>): MenuNode[] {
  return (MENUS as readonly MenuDef[])
    .filter((m) => m.parentId === parentId && m.type !== 'F' && m.path)
    .flatMap((m): MenuNode[] => {
      // A page switched by a white list (漏报检查: lbsjc) is absent for an agency not on it.
      const gate = m.path ? MENU_WHITELIST_GATES[m.path] : undefined;
      if (gate && lists && !lists.has(gate)) return [];
      const children = menuTreeFor(perms, m.id, lists);
      if (m.type === 'M' && children.length === 0) return [];
      if (m.type === 'C' && m.perm && !hasPerm(perms, m.perm)) return [];
      return [{ id: m.id, type: m.type as 'M' | 'C', title: m.title, path: m.path ?? '', icon: m.icon, children }];
    });
}

export const menuModule: ServerModule = {
  name: 'menu',
  calls: [
    serve(getRoutersCall, async ({ session, tx }) => {
      const lists = await whitelistsFor(tx, session);
      const gated = (p: string) => PERM_WHITELIST_GATES[p] !== undefined && !lists.has(PERM_WHITELIST_GATES[p] ?? '');
      return { menus: menuTreeFor(session.perms, 0, lists), buttons: session.perms.filter((p) => !gated(p)) };
    }),
  ],
};
