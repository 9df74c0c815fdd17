import { getStaffOptionsCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the staff feature; all start with 'staff'. */
export const STAFF_KEYS = {
  all: ['staff'] as const,
  list: (params: unknown) => ['staff', 'list', params] as const,
  invites: (params: unknown) => ['staff', 'invites', params] as const,
  options: ['staff', 'options'] as const,
  handoverInfo: (id: number) => ['staff', 'handover-info', id] as const,
  handoverStaff: ['staff', 'handover-staff'] as const,
};

/** Department options and the quit setting of the agency. */
export function useStaffOptions() {
  return useQuery({ queryKey: STAFF_KEYS.options, queryFn: () => call(getStaffOptionsCall, {}), staleTime: 60_000 });
}
