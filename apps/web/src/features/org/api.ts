import {
  agencyUserRelationCall,
  getCompartmentInfoCall,
  judgeSwitchingButtonCall,
  REGION_LEVEL,
  type Region,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/** Query keys of the organisation feature; all start with 'org' or 'platform'. */
export const ORG_KEYS = {
  list: (q: string) => ['org', 'list', q] as const,
  judge: (orgId: number | null) => ['org', 'judge', orgId] as const,
  relation: ['org', 'relation'] as const,
  agencyInfo: ['org', 'agency-info'] as const,
  applications: ['platform', 'applications'] as const,
  whiteorders: ['platform', 'whiteorders'] as const,
};

/** Whether and where the identity switch (代理机构端 / 会计工厂端) goes; hidden when the call fails. */
export function useJudgeSwitch(orgId: number | null) {
  return useQuery({
    queryKey: ORG_KEYS.judge(orgId),
    queryFn: () => call(judgeSwitchingButtonCall, {}, { handle: 'all' }),
    staleTime: 5 * 60_000,
    enabled: orgId !== null,
  });
}

/** The user's relation to agencies: admin flag, pending application, the agency acted for. */
export function useAgencyRelation() {
  return useQuery({
    queryKey: ORG_KEYS.relation,
    queryFn: () => call(agencyUserRelationCall, {}, { handle: 'all' }),
    staleTime: 60_000,
  });
}

/** Regions of one level below `parentCode` (provinces when level is 1). */
export async function loadRegions(level: 1 | 2 | 3, parentCode?: string): Promise<Region[]> {
  const body = level === REGION_LEVEL.province ? { dataType: level } : { dataType: level, parentCode };
  const data = await call(getCompartmentInfoCall, body as { dataType: 1 | 2 | 3; parentCode?: string });
  return data?.dataArray ?? [];
}
