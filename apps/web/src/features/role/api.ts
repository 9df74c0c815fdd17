import { type PermNode, stationListCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the role feature; all start with 'role'. */
export const ROLE_KEYS = {
  all: ['role'] as const,
  list: (params: unknown) => ['role', 'list', params] as const,
  allRoles: ['role', 'list', 'all'] as const,
  members: (params: unknown) => ['role', 'members', params] as const,
  tree: (roleId: number) => ['role', 'tree', roleId] as const,
  stations: ['role', 'stations'] as const,
};

export const PAGE_SIZES = [20, 50, 100, 500];

/** The agency's posts, for assigning a member's posts (the page's editors are administrators). */
export function usePostOptions(enabled: boolean) {
  return useQuery({
    queryKey: ROLE_KEYS.stations,
    queryFn: () => call(stationListCall, { pageNo: 1, pageSize: 500 }),
    enabled,
    staleTime: 30_000,
  });
}

/** Every node of a tree, depth first. */
export function flattenTree(nodes: readonly PermNode[]): PermNode[] {
  return nodes.flatMap((n) => [n, ...flattenTree(n.children)]);
}

/** Kind of a menu node in words. */
export const MENU_TYPE_NAMES: Record<PermNode['menutype'], string> = { M: '目录', C: '页面', F: '按钮' };
