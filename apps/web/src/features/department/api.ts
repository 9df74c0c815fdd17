import { type DepartmentNode, departmentAllStaffCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the department feature; all start with 'department'. */
export const DEPT_KEYS = {
  all: ['department'] as const,
  tree: ['department', 'tree'] as const,
  staff: (key: string) => ['department', 'staff', key] as const,
  unassigned: ['department', 'staff', 'unassigned'] as const,
  everyone: ['department', 'everyone'] as const,
};

/** Every member of the agency with their department (choosing a head). */
export function useEveryone(enabled: boolean) {
  return useQuery({
    queryKey: DEPT_KEYS.everyone,
    queryFn: () => call(departmentAllStaffCall, {}),
    enabled,
  });
}

/** Every department of the tree, depth first. */
export function flattenDepartments(nodes: readonly DepartmentNode[]): DepartmentNode[] {
  return nodes.flatMap((n) => [n, ...flattenDepartments(n.children)]);
}

/** The department with this id and its path of names from the top ('记账部 / 一组'). */
export function findDepartment(
  nodes: readonly DepartmentNode[],
  id: number,
  trail: string[] = [],
): { node: DepartmentNode; path: string[]; parentId: number | null } | null {
  for (const n of nodes) {
    if (n.id === id) return { node: n, path: [...trail, n.name], parentId: null };
    const below = findDepartment(n.children, id, [...trail, n.name]);
    if (below) return { ...below, parentId: below.parentId ?? n.id };
  }
  return null;
}

/** Tree-select data of departments; `exclude` (and everything below it) is left out. */
export function departmentOptions(
  nodes: readonly DepartmentNode[],
  exclude?: number,
): { value: number; title: string; children: ReturnType<typeof departmentOptions> }[] {
  return nodes
    .filter((n) => n.id !== exclude)
    .map((n) => ({ value: n.id, title: n.name, children: departmentOptions(n.children, exclude) }));
}

/** Keeps departments whose name contains `q`, with their ancestors. */
export function filterDepartments(nodes: readonly DepartmentNode[], q: string): DepartmentNode[] {
  if (!q) return [...nodes];
  return nodes.flatMap((n) => {
    const children = filterDepartments(n.children, q);
    return n.name.includes(q) || children.length > 0 ? [{ ...n, children }] : [];
  });
}
