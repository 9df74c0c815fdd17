import { CHECK_PAGE_SIZES, checkListCall, type SummaryLog } from '@dzy/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Drawer, Empty, Space, Table, type TableProps, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { call } from '../../../lib/request';
import { DECLARE_KEYS } from '../api';
import { ResultTable } from './result-table';

const STATE_TAG: Record<SummaryLog['state'], { color: string; text: string }> = {
  running: { color: 'processing', text: '检查中' },
  done: { color: 'success', text: '已完成' },
  stopped: { color: 'default', text: '已停止' },
};

/** 检查记录: the summary logs (who checked which period, how many succeeded and failed), each with its detail. */
export function SummaryLogs() {
  const [ssq, setSsq] = useState<Dayjs | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [detail, setDetail] = useState<SummaryLog | null>(null);
  const body = { ...page, ssq: ssq ? ssq.format('YYYY-MM') : '' };
  const list = useQuery({
    queryKey: DECLARE_KEYS.summaries(body),
    queryFn: () => call(checkListCall, body),
    placeholderData: keepPreviousData,
  });
  const columns: TableProps<SummaryLog>['columns'] = [
    {
      title: '检查时间',
      dataIndex: 'createdAt',
      width: 170,
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    { title: '所属期', dataIndex: 'ssq', width: 100 },
    { title: '检查人', dataIndex: 'userName', width: 140 },
    {
      title: '状态',
      dataIndex: 'state',
      width: 100,
      render: (v: SummaryLog['state']) => <Tag color={STATE_TAG[v].color}>{STATE_TAG[v].text}</Tag>,
    },
    { title: '企业总数', dataIndex: 'totalNum', width: 100, align: 'right' },
    { title: '已检查', dataIndex: 'checkNum', width: 100, align: 'right' },
    { title: '成功', dataIndex: 'successNum', width: 90, align: 'right' },
    { title: '失败', dataIndex: 'failNum', width: 90, align: 'right' },
    {
      title: '完成时间',
      dataIndex: 'finishedAt',
      width: 170,
      render: (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—'),
    },
    {
      title: '操作',
      key: 'op',
      width: 90,
      render: (_, r) => (
        <Button type="link" size="small" onClick={() => setDetail(r)}>
          查看详情
        </Button>
      ),
    },
  ];
  return (
    <div>
      <Space className="dzy-check-toolbar" wrap>
        <DatePicker
          picker="month"
          placeholder="全部所属期"
          value={ssq}
          onChange={(v) => {
            setSsq(v);
            setPage((p) => ({ ...p, pageNum: 1 }));
          }}
        />
      </Space>
      <Table<SummaryLog>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching && !list.data}
        locale={{ emptyText: <Empty description="暂无检查记录" /> }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: CHECK_PAGE_SIZES.map(String),
          showTotal: (t) => `共 ${t} 条`,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
      />
      <Drawer
        open={detail !== null}
        width={1120}
        title={
          detail
            ? `检查详情：所属期 ${detail.ssq}，${dayjs(detail.createdAt).format('YYYY-MM-DD HH:mm')}（${detail.userName}）`
            : ''
        }
        onClose={() => setDetail(null)}
        destroyOnHidden
      >
        {detail && <ResultTable key={detail.id} batchId={detail.id} ssq={detail.ssq} />}
      </Drawer>
    </div>
  );
}
