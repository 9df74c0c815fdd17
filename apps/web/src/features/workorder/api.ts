import { allocateUsersCall, stationListCall, type WoTemplate, woTemplateListCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the work-order feature; all start with 'workorder'. */
export const WO_KEYS = {
  all: ['workorder'] as const,
  templates: (params: unknown) => ['workorder', 'templates', params] as const,
  list: (params: unknown) => ['workorder', 'list', params] as const,
  detail: (id: number) => ['workorder', 'detail', id] as const,
  lines: (params: unknown) => ['workorder', 'lines', params] as const,
};

/** The agency's work-order templates (only the enabled ones for choosers). */
export function useWoTemplates(onlyEnabled: boolean, name = '') {
  const body = { name, status: onlyEnabled ? ('1' as const) : ('' as const) };
  return useQuery({
    queryKey: WO_KEYS.templates(body),
    queryFn: () => call(woTemplateListCall, body),
    select: (d): WoTemplate[] => d?.list ?? [],
  });
}

/** Members of the agency (assignees); empty when the caller may not list them. */
export function useMembers() {
  return useQuery({
    queryKey: ['workorder', 'members'],
    queryFn: () => call(allocateUsersCall, {}, { handle: 'all' }).catch(() => []),
    staleTime: 60_000,
  });
}

/** The agency's stations (岗位) for the template dialog. */
export function useStations() {
  return useQuery({
    queryKey: ['workorder', 'stations'],
    queryFn: () =>
      call(stationListCall, { pageNo: 1, pageSize: 500 }, { handle: 'all' })
        .then((d) => d?.list ?? [])
        .catch(() => []),
    staleTime: 60_000,
  });
}
