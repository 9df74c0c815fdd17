import { PlayCircleOutlined, SelectOutlined } from '@ant-design/icons';
import {
  CHECK_SELECT_MAX,
  checkUnDeclaredCall,
  checkUnPaidCall,
  FILING_STATE_NAMES,
  FILING_TAX_TYPE_NAMES,
  type FilingState,
  LBSJC_DICT,
  LBSJC_KIND_NAMES,
  LBSJC_POLL_MS,
  LBSJC_PUSH_TYPE,
  type LbsjcItem,
  type LbsjcKind,
  type LbsjcRate,
  lbsjcAccessCall,
  lbsjcClientsCall,
  lbsjcItemsCall,
  lbsjcRateCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Input, Modal, Progress, Space, Table, Tabs, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Auth } from '../../../components/auth';
import { EnterpriseChooser } from '../../../components/enterprise-chooser/enterprise-chooser';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { usePagedList } from '../../../lib/paging';
import { onPush } from '../../../lib/push';
import { call } from '../../../lib/request';
import { periodLabel } from '../period';

const stateName = (kind: LbsjcKind, s: string) =>
  LBSJC_DICT[kind].states.find((x) => x.code === s)?.name ?? FILING_STATE_NAMES[s as FilingState] ?? s;

function KindPanel({ kind }: { kind: LbsjcKind }) {
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [showFailed, setShowFailed] = useState(false);
  const [picking, setPicking] = useState(false);
  const rate = useQuery({
    queryKey: ['filing-check', 'lbsjc-rate', kind],
    queryFn: () => call(lbsjcRateCall, { kind }),
    refetchInterval: (q) => (q.state.data?.state === 'running' ? LBSJC_POLL_MS : false),
  });
  const r = rate.data;
  // Progress is pushed as each client finishes (the poll above is the fallback).
  useEffect(
    () =>
      onPush(LBSJC_PUSH_TYPE, (data) => {
        const next = data as LbsjcRate;
        if (next.kind === kind) qc.setQueryData(['filing-check', 'lbsjc-rate', kind], next);
      }),
    [kind, qc],
  );
  const items = usePagedList(
    lbsjcItemsCall,
    { kind, batchId: r?.batchId, keyword },
    { enabled: Boolean(r), queryKey: ['filing-check', 'lbsjc-items', r?.completeNum] },
  );
  const running = r?.state === 'running';
  const columns: ListColumn<LbsjcItem>[] = [
    { key: 'qymc', title: '企业名称', dataIndex: 'qymc', width: 190, ellipsis: true },
    {
      key: 'type',
      title: '税种',
      dataIndex: 'type',
      width: 150,
      ellipsis: true,
      render: (t: LbsjcItem['type']) => FILING_TAX_TYPE_NAMES[t],
    },
    {
      key: 'period',
      title: '所属期',
      width: 110,
      render: (_: unknown, x) => <span title={`${x.skssqq} 至 ${x.skssqz}`}>{periodLabel(x.skssqq, x.skssqz)}</span>,
    },
    { key: 'sbqx', title: '申报期限', dataIndex: 'sbqx', width: 100 },
    {
      key: 'state',
      title: '状态',
      dataIndex: 'state',
      width: 100,
      render: (s: string) => (
        <Tag color={s === 'wsb' ? 'blue' : s === 'ysb' ? 'orange' : 'red'}>{stateName(kind, s)}</Tag>
      ),
    },
    {
      key: 'amount',
      title: kind === 'wsb' ? '应补(退)税额' : '未缴金额',
      dataIndex: 'amount',
      width: 110,
      align: 'right',
    },
    ...(kind === 'wjk' ? [{ key: 'znj', title: '滞纳金', dataIndex: 'znj', width: 90, align: 'right' as const }] : []),
    { key: 'daysOverdue', title: '逾期天数', dataIndex: 'daysOverdue', width: 90, align: 'right' },
    { key: 'allocateUserName', title: '负责人', dataIndex: 'allocateUserName', width: 80, ellipsis: true },
  ];
  const run = (scope: 'all' | 'selected', aeiIds: number[]) =>
    modal.confirm({
      title: `开始${LBSJC_KIND_NAMES[kind]}检查`,
      content: `将逐户登录电子税务局，检查${
        scope === 'all' ? '数据范围内全部在服务且有税号的企业' : `所选 ${aeiIds.length} 家企业`
      }（含以前所属期），确定开始吗？`,
      okText: '开始检查',
      cancelText: '取消',
      onOk: async () => {
        const res = await call(kind === 'wsb' ? checkUnDeclaredCall : checkUnPaidCall, { scope, aeiIds });
        if (res && res.blocked.length > 0) message.warning(`${res.blocked.length} 家企业因合同提醒被限制，未检查`);
        if (res && res.noQysh.length > 0) message.warning(`${res.noQysh.length} 家企业没有税号，未检查`);
        await qc.invalidateQueries({ queryKey: ['filing-check', 'lbsjc-rate', kind] });
      },
    });
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap>
        <Auth perms={['declare:lbsjc:run']}>
          <Space>
            <Button type="primary" icon={<PlayCircleOutlined />} disabled={running} onClick={() => run('all', [])}>
              {`检查${LBSJC_KIND_NAMES[kind]}`}
            </Button>
            <Button icon={<SelectOutlined />} disabled={running} onClick={() => setPicking(true)}>
              选择企业检查
            </Button>
          </Space>
        </Auth>
        <Input.Search
          allowClear
          placeholder="企业名称或税号"
          style={{ width: 260 }}
          onSearch={(v) => setKeyword(v.trim())}
        />
      </Space>
      {r && (
        <div data-testid={`lbsjc-progress-${kind}`} style={{ display: 'flex', gap: 16, alignItems: 'center' }}>
          <Tag color={running ? 'processing' : 'success'}>{running ? '检查中' : '检查完成'}</Tag>
          <Progress percent={r.rate} status={running ? 'active' : 'success'} style={{ maxWidth: 320, margin: 0 }} />
          <span>
            已完成 {r.completeNum} / {r.totalNum}，发现 <b>{r.foundNum}</b> 条
            {r.failNum > 0 && (
              <Button type="link" size="small" danger onClick={() => setShowFailed(true)}>
                {`${r.failNum} 家检查失败`}
              </Button>
            )}
          </span>
        </div>
      )}
      {r ? (
        <ListTable<LbsjcItem>
          pageKey={`filing-lbsjc-${kind}`}
          nameKey="qymc"
          rowKey="id"
          loading={items.isFetching}
          dataSource={items.data?.list ?? []}
          empty={keyword ? '没有符合条件的记录' : `未发现${LBSJC_KIND_NAMES[kind]}的申报`}
          pagination={items.pagination}
          columns={columns}
        />
      ) : (
        <Empty description="尚未检查，点击上方按钮开始" />
      )}
      <EnterpriseChooser
        multiple
        max={CHECK_SELECT_MAX}
        title="选择企业"
        open={picking}
        onCancel={() => setPicking(false)}
        onOk={(chosen) => {
          setPicking(false);
          if (chosen.length > 0)
            run(
              'selected',
              chosen.map((c) => c.id),
            );
        }}
      />
      {r && <FailedClients batchId={r.batchId} open={showFailed} onClose={() => setShowFailed(false)} />}
    </Space>
  );
}

/** The clients a check could not answer for, with the reason (the check messages of tax-bureau.md §8). */
function FailedClients({ batchId, open, onClose }: { batchId: number; open: boolean; onClose: () => void }) {
  const [pageNum, setPageNum] = useState(1);
  const list = useQuery({
    enabled: open,
    queryKey: ['filing-check', 'lbsjc-failed', batchId, pageNum],
    queryFn: () => call(lbsjcClientsCall, { batchId, failedOnly: true, pageNum, pageSize: 10 }),
  });
  return (
    <Modal open={open} onCancel={onClose} footer={null} title="检查失败的企业" width={720}>
      <Table
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={{ current: pageNum, pageSize: 10, total: list.data?.total ?? 0, onChange: setPageNum }}
        columns={[
          { title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
          { title: '失败原因', dataIndex: 'msg' },
        ]}
      />
    </Modal>
  );
}

/** 漏报检查 /declare/lbsjc: 未申报 (white list wsbsdt) and 未缴款 checks with their results. */
export function LbsjcPage() {
  useDocumentTitle('漏报检查');
  const access = useQuery({ queryKey: ['filing-check', 'access'], queryFn: () => call(lbsjcAccessCall, {}) });
  if (!access.data) return <Card loading variant="borderless" />;
  if (!access.data.lbsjc)
    return (
      <Card variant="borderless">
        <Empty description="贵机构未开通漏报检查，请联系平台开通" />
      </Card>
    );
  const tabs = [
    ...(access.data.wsbsdt ? [{ key: 'wsb', label: '未申报', children: <KindPanel kind="wsb" /> }] : []),
    { key: 'wjk', label: '未缴款', children: <KindPanel kind="wjk" /> },
  ];
  return (
    <Card variant="borderless" title="漏报检查">
      <Tabs items={tabs} />
    </Card>
  );
}
