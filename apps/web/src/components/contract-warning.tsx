import { contractStatusCall, type ReminderSource } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { call } from '../lib/request';

/**
 * The contract warning of an enterprise for a reminder source (business.md §8: 合同已欠费，请及时续费 ...),
 * by the agency's reminder settings: level 1 a warning, level 2 an error (the action is also refused by the
 * server). Nothing is shown when no warning applies or the status cannot be read.
 */
export function ContractWarning({
  aeiId,
  ly,
  style,
}: {
  aeiId: number;
  ly: ReminderSource;
  style?: React.CSSProperties;
}) {
  const status = useQuery({
    queryKey: ['contract', 'status', aeiId, ly],
    queryFn: () => call(contractStatusCall, { aeiId, ly }, { handle: 'all' }),
    staleTime: 30_000,
    retry: false,
  });
  const s = status.data;
  if (!s?.warning) return null;
  return (
    <Alert
      data-testid="contract-warning"
      type={s.level >= 2 ? 'error' : 'warning'}
      showIcon
      message={s.warning}
      style={{ marginBottom: 12, ...style }}
    />
  );
}
