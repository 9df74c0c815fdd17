import { SyncOutlined } from '@ant-design/icons';
import type { CallBody, CallData, CallDef, TaxDataFailure, TaxDataSource } from '@dzy/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { call } from '../../../lib/request';

export const TAX_DATA_KEYS = {
  all: ['declare-data'] as const,
  tab: (path: string, aeiId: number) => ['declare-data', path, aeiId] as const,
};

interface Head {
  source: TaxDataSource;
  collectedAt: string | null;
  failure: TaxDataFailure | null;
}

/**
 * One tab's data: what is stored (read when the tab opens) and a live query that replaces it. A
 * failed live query answers the stored data with `failure`, which the frame shows above it.
 */
export function useTaxTab<C extends CallDef>(def: C, aeiId: number) {
  const qc = useQueryClient();
  const key = TAX_DATA_KEYS.tab(def.path, aeiId);
  const stored = useQuery({
    queryKey: key,
    queryFn: () => call(def, { aeiId, live: false } as CallBody<C>),
  });
  const live = useMutation({
    mutationFn: (params: Record<string, unknown>) => call(def, { aeiId, live: true, ...params } as CallBody<C>),
    onSuccess: (d) => qc.setQueryData(key, d),
  });
  return { data: stored.data as (CallData<C> & Head) | null | undefined, pending: stored.isPending, live };
}

const SOURCE_TEXT: Record<TaxDataSource, string> = {
  check: '报税检查采集',
  query: '实时查询',
  none: '尚无数据',
};

/** The bar above a tab: where the data came from and when, the query's own fields, 实时查询. */
export function TabFrame({
  head,
  pending,
  querying,
  onLive,
  fields,
  emptyHint,
  children,
}: {
  head: Head | null | undefined;
  pending: boolean;
  querying: boolean;
  onLive: () => void;
  fields?: ReactNode;
  /** What to say when there is no data yet. */
  emptyHint: string;
  children: ReactNode;
}) {
  const source = head?.source ?? 'none';
  return (
    <div className="dzy-taxdata-tab">
      <div className="dzy-taxdata-bar">
        <Space size={12} wrap>
          {fields}
          <Button
            type="primary"
            icon={<SyncOutlined spin={querying} />}
            loading={false}
            disabled={querying}
            onClick={onLive}
          >
            {querying ? '查询中…' : '实时查询'}
          </Button>
        </Space>
        <Space size={8} className="dzy-taxdata-source" data-testid="taxdata-source">
          <Tag color={source === 'check' ? 'blue' : source === 'query' ? 'green' : 'default'}>
            {SOURCE_TEXT[source]}
          </Tag>
          {head?.collectedAt ? (
            <Typography.Text type="secondary">
              {source === 'check' ? '采集于' : '查询于'} {dayjs(head.collectedAt).format('YYYY-MM-DD HH:mm:ss')}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary">{emptyHint}</Typography.Text>
          )}
        </Space>
      </div>
      {head?.failure && (
        <Alert
          type={head.failure.msg_type === 6 ? 'warning' : 'error'}
          showIcon
          className="dzy-taxdata-failure"
          message={`实时查询失败：${head.failure.msg}`}
          description={
            head.collectedAt ? `${head.failure.hint}。下方为${SOURCE_TEXT[source]}的数据。` : head.failure.hint
          }
        />
      )}
      {pending ? (
        <div style={{ textAlign: 'center', padding: 48 }}>
          <Spin />
        </div>
      ) : (
        <Spin spinning={querying} tip="正在查询税务局…">
          {children}
        </Spin>
      )}
    </div>
  );
}
