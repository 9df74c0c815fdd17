import {
  CHECK_MSG,
  CHECK_PAGE_SIZES,
  type CheckLog,
  checkCountCall,
  checkResultListCall,
  checkStartCall,
  failCheckListCall,
  MSG_TYPE_OPTIONS,
  type MsgType,
} from '@dzy/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Empty, Input, Select, Space, Table, type TableProps, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { DECLARE_KEYS } from '../api';
import { MSG_TYPE_COLORS, MsgTypeTag } from './msg-type-tag';

/**
 * (Keyed by batchId where it is used: another batch starts from page 1, unfiltered, nothing selected.)
 * The saved check logs of one batch: every enterprise with its msg_type tag and message, filtered by
 * msg_type (the counts per type are the filter's chips); or (failed) only the failures, with 重新检查.
 */
export function ResultTable({
  batchId,
  failed = false,
  ssq,
  running = false,
  onRetry,
}: {
  batchId: number | null;
  failed?: boolean;
  ssq?: string;
  running?: boolean;
  /** Starts a new check of the chosen failures; answers whether it started. */
  onRetry?: (aeiIds: number[]) => Promise<boolean>;
}) {
  const can = useHasPerm();
  const [keyword, setKeyword] = useState('');
  const [msgType, setMsgType] = useState<MsgType | undefined>(undefined);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [selected, setSelected] = useState<number[]>([]);

  const body = { batchId: batchId ?? 0, keyword, ...page, ...(msgType && !failed ? { msg_type: msgType } : {}) };
  const list = useQuery({
    queryKey: failed ? DECLARE_KEYS.failed(body) : DECLARE_KEYS.results(body),
    queryFn: () =>
      failed ? call(failCheckListCall, body) : call(checkResultListCall, body as typeof body & { msg_type?: MsgType }),
    enabled: batchId !== null,
    placeholderData: keepPreviousData,
  });
  const counts = useQuery({
    queryKey: DECLARE_KEYS.counts(batchId),
    queryFn: () => call(checkCountCall, { batchId: batchId ?? 0 }),
    enabled: batchId !== null && !failed,
  });

  if (batchId === null) {
    return <Empty description="暂无检查记录，选择所属期和企业后点击“开始检查”" />;
  }

  // The enterprise's name is what the accountant reads: shown whole (wrapping), fixed on the left; a narrow
  // window scrolls the other columns.
  const columns: TableProps<CheckLog>['columns'] = [
    {
      title: '序号',
      key: 'no',
      width: 64,
      align: 'center',
      fixed: 'left',
      render: (_, _r, i) => (page.pageNum - 1) * page.pageSize + i + 1,
    },
    {
      title: '企业名称',
      dataIndex: 'qymc',
      width: 260,
      fixed: 'left',
    },
    { title: '企业税号', dataIndex: 'qysh', width: 190, render: (v: string) => v || '—' },
    {
      title: '检查结果',
      dataIndex: 'msg_type',
      width: 130,
      render: (v: number | null) => <MsgTypeTag value={v} />,
    },
    {
      title: '说明',
      dataIndex: 'msg',
      width: 300,
      render: (v: string, r) =>
        r.msg_type === null ? <Typography.Text type="secondary">等待检查</Typography.Text> : v || '—',
    },
    {
      title: '检查时间',
      dataIndex: 'updatedAt',
      width: 170,
      render: (v: string, r) => (r.msg_type === null ? '—' : dayjs(v).format('YYYY-MM-DD HH:mm:ss')),
    },
  ];

  const retry = async () => {
    if (selected.length === 0) {
      toast('warning', CHECK_MSG.chooseEnterprise);
      return;
    }
    if (onRetry && (await onRetry(selected))) setSelected([]);
  };

  const byType = counts.data?.byType ?? {};
  return (
    <div>
      <div className="dzy-check-toolbar">
        <Space wrap size={8}>
          <Input.Search
            allowClear
            placeholder="企业名称或税号"
            maxLength={50}
            style={{ width: 240 }}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, pageNum: 1 }));
            }}
          />
          {!failed && (
            <Select<MsgType>
              allowClear
              placeholder="全部检查结果"
              style={{ width: 180 }}
              value={msgType}
              data-testid="msg-type-filter"
              onChange={(v) => {
                setMsgType(v);
                setPage((p) => ({ ...p, pageNum: 1 }));
              }}
              options={MSG_TYPE_OPTIONS.map((o) => ({
                value: o.value,
                label: `${o.label}（${byType[String(o.value)] ?? 0}）`,
              }))}
            />
          )}
          {failed && can([checkStartCall.access]) && (
            <Button type="primary" onClick={retry} disabled={running}>
              重新检查{selected.length > 0 ? `（${selected.length}）` : ''}
            </Button>
          )}
        </Space>
        {!failed && (
          <Space wrap size={4} className="dzy-check-chips">
            {MSG_TYPE_OPTIONS.filter((o) => (byType[String(o.value)] ?? 0) > 0).map((o) => (
              <Tag
                key={o.value}
                color={MSG_TYPE_COLORS[o.value]}
                className="dzy-check-chip"
                data-testid={`chip-${o.value}`}
                onClick={() => {
                  setMsgType(o.value);
                  setPage((p) => ({ ...p, pageNum: 1 }));
                }}
              >
                {o.label} {byType[String(o.value)]}
              </Tag>
            ))}
          </Space>
        )}
      </div>
      <Table<CheckLog>
        rowKey="aeiId"
        size="middle"
        columns={columns}
        scroll={{ x: 1114 + (failed ? 32 : 0) }}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching && !list.data}
        rowSelection={
          failed
            ? { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (k) => setSelected(k as number[]) }
            : undefined
        }
        locale={{ emptyText: <Empty description={failed ? '没有检查失败的企业' : '没有符合条件的记录'} /> }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: CHECK_PAGE_SIZES.map(String),
          showTotal: (t) => `共 ${t} 条${ssq ? `（所属期 ${ssq}）` : ''}`,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
      />
    </div>
  );
}
