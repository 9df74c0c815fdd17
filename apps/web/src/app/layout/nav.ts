import type { MenuNode } from '@dzy/shared';

/**
 * Top menus whose first child is one of these keep no sidebar (foundation.md §2), nor do those
 * without children.
 */
const NO_SIDEBAR_FIRST_CHILD = ['dashboard', 'coludriskcontrol', 'cloudfile'];

const lastSegment = (path: string) => (path.split('/').filter(Boolean).at(-1) ?? '').toLowerCase();

/** Whether the 200 px sidebar is hidden for the current top menu. */
export function sidebarHidden(top: MenuNode | null | undefined): boolean {
  if (top?.type !== 'M' || top.children.length === 0) return true;
  const first = top.children[0];
  return !first || NO_SIDEBAR_FIRST_CHILD.includes(lastSegment(first.path));
}

/** The first page below a node (depth first): where clicking a top menu goes. */
export function firstPage(node: MenuNode): string | null {
  if (node.type === 'C') return node.path;
  for (const child of node.children) {
    const p = firstPage(child);
    if (p) return p;
  }
  return null;
}
