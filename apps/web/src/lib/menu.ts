import { getRoutersCall, type MenuNode, MSG } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { toast } from './feedback';
import { call } from './request';

export const MENUS_KEY = ['menus'] as const;

/** The signed-in user's menu tree and button permissions; failures are the caller's to handle. */
export function useMenus() {
  return useQuery({
    queryKey: MENUS_KEY,
    queryFn: async () => (await call(getRoutersCall, {}, { handle: 'all' })) ?? { menus: [], buttons: [] },
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Drops entries with an empty path and directories left without children (foundation.md §5). */
export function pruneMenus(nodes: readonly MenuNode[]): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of nodes) {
    if (!node.path) continue;
    if (node.type === 'M') {
      const children = pruneMenus(node.children);
      if (children.length > 0) out.push({ ...node, children });
    } else {
      out.push({ ...node, children: [] });
    }
  }
  return out;
}

/** Every page path the menu tree grants. */
export function pagePaths(nodes: readonly MenuNode[]): Set<string> {
  const paths = new Set<string>();
  const walk = (list: readonly MenuNode[]) => {
    for (const node of list) {
      if (node.type === 'C') paths.add(node.path);
      walk(node.children);
    }
  };
  walk(nodes);
  return paths;
}

/** The chain of menu entries from the top down to the page at `path`, or [] when it is not in the tree. */
export function menuTrail(nodes: readonly MenuNode[], path: string): MenuNode[] {
  for (const node of nodes) {
    if (node.path === path) return [node];
    const below = menuTrail(node.children, path);
    if (below.length > 0) return [node, ...below];
  }
  return [];
}

/** The permitted page paths of the current user (an empty set while the menus load). */
export function usePermittedPaths(): Set<string> {
  const { data } = useMenus();
  return useMemo(() => pagePaths(pruneMenus(data?.menus ?? [])), [data]);
}

/**
 * Menu-path jump (foundation.md §5): go to `path` when the user may open it; otherwise go to
 * `fallback` if given, else warn 当前账户没有该功能权限或者页面不存在.
 */
export function useMenuJump() {
  const navigate = useNavigate();
  const permitted = usePermittedPaths();
  return useCallback(
    (path: string, fallback?: string) => {
      const pathname = path.split('?')[0] ?? path;
      if (permitted.has(pathname)) navigate(path);
      else if (fallback) navigate(fallback);
      else toast('warning', MSG.noPermission);
    },
    [navigate, permitted],
  );
}
