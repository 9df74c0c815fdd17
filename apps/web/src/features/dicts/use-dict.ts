import { type DictValue, getDictDataCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/request';

/**
 * The enabled values of a dictionary as the operator keeps them (user/dict/getDictData), read once per
 * session; `fallback` (the shipped constants) is used until they arrive or when the read fails.
 */
export function useDict(dictGroup: string, fallback: readonly DictValue[]): readonly DictValue[] {
  const q = useQuery({
    queryKey: ['dict', dictGroup],
    queryFn: () => call(getDictDataCall, { dictGroup }, { handle: 'all' }),
    staleTime: 30 * 60_000,
  });
  return q.data && q.data.length > 0 ? q.data : fallback;
}
