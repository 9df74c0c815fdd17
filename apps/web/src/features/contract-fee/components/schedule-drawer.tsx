import { type ChargeItem, FEE_STATUS, feeScheduleCall, PAY_METHOD_NAMES, type ReceivableItem } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Empty, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useHasPerm } from '../../../components/auth';
import { call } from '../../../lib/request';
import { FEE_KEYS, showYuan } from '../api';
import { useRevoke } from './use-revoke';

/** Contract states as the fee pages name them (the contract module owns the full dictionary). */
const HTZT_LABELS: Readonly<Record<string, string>> = { '1': '待提交', '2': '执行中', '3': '已终止' };
const CYCLE_LABELS: Readonly<Record<number, string>> = { 0: '一次性', 1: '按月', 3: '按季', 6: '按半年', 12: '按年' };

export function FeeStatusTag({ status }: { status: string }) {
  const s = FEE_STATUS.find((x) => x.value === status);
  return <Tag color={s?.color}>{s?.label ?? status}</Tag>;
}

/** 收款计划: one contract's periods, what was paid on each, and its charges. */
export function ScheduleDrawer({
  contractId,
  onClose,
  onCharge,
  onChanged,
}: {
  contractId: number | null;
  onClose: () => void;
  onCharge: (p: ReceivableItem) => void;
  onChanged: () => void;
}) {
  const can = useHasPerm();
  const q = useQuery({
    queryKey: FEE_KEYS.schedule(contractId ?? 0),
    queryFn: () => call(feeScheduleCall, { contractId: contractId ?? 0 }),
    enabled: contractId !== null,
  });
  const revoke = useRevoke(onChanged);
  const c = q.data?.contract;

  return (
    <Drawer
      open={contractId !== null}
      onClose={onClose}
      width={900}
      title={c ? `收款计划 · ${c.contractNo}` : '收款计划'}
      destroyOnHidden
    >
      {q.isPending && <Skeleton active />}
      {c && (
        <Space direction="vertical" size={20} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={3}
            items={[
              { key: 'qymc', label: '企业名称', children: c.qymc, span: 2 },
              { key: 'htzt', label: '合同状态', children: HTZT_LABELS[c.htzt] ?? c.htzt },
              { key: 'term', label: '服务期间', children: `${c.startDate} 至 ${c.endDate}`, span: 2 },
              { key: 'cycle', label: '收费周期', children: CYCLE_LABELS[c.payCycle] ?? `${c.payCycle}个月` },
              { key: 'amount', label: '应收合计', children: showYuan(c.amount) },
              { key: 'paid', label: '已收合计', children: showYuan(c.paid) },
              { key: 'unpaid', label: '未收合计', children: showYuan(c.unpaid) },
              {
                key: 'overdue',
                label: '已到期未收',
                children: (
                  <Typography.Text type={c.dueUnpaid !== '0.00' ? 'danger' : undefined}>
                    {showYuan(c.dueUnpaid)}
                  </Typography.Text>
                ),
              },
              {
                key: 'qfys',
                label: '欠费月数',
                children: c.qfys > 0 ? <Typography.Text type="danger">{c.qfys} 个月</Typography.Text> : '—',
              },
              { key: 'owner', label: '合同负责人', children: c.contractUserName || '—' },
            ]}
          />
          <div>
            <Typography.Title level={5}>应收账期</Typography.Title>
            <Table<ReceivableItem>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={q.data?.periods ?? []}
              locale={{ emptyText: <Empty description="该合同暂无应收账期" /> }}
              columns={[
                { title: '账期', dataIndex: 'periodNo', width: 70, render: (v: number) => `第${v}期` },
                {
                  title: '服务期间',
                  key: 'range',
                  width: 200,
                  render: (_, r) => `${r.periodStart} 至 ${r.periodEnd}`,
                },
                { title: '应收日期', dataIndex: 'dueDate', width: 110 },
                { title: '应收金额', dataIndex: 'amount', align: 'right', render: showYuan },
                { title: '已收金额', dataIndex: 'paid', align: 'right', render: showYuan },
                { title: '未收金额', dataIndex: 'unpaid', align: 'right', render: showYuan },
                {
                  title: '状态',
                  dataIndex: 'feeStatus',
                  width: 96,
                  render: (v: string) => <FeeStatusTag status={v} />,
                },
                {
                  title: '操作',
                  key: 'op',
                  width: 96,
                  render: (_, r) =>
                    can(['fee:charge:add']) && r.editable && r.feeStatus !== 'paid' ? (
                      <Button type="link" size="small" onClick={() => onCharge(r)}>
                        登记收款
                      </Button>
                    ) : null,
                },
              ]}
            />
          </div>
          <div>
            <Typography.Title level={5}>收款记录</Typography.Title>
            <Table<ChargeItem>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={q.data?.charges ?? []}
              locale={{ emptyText: <Empty description="暂无收款记录" /> }}
              rowClassName={(r) => (r.revoked ? 'dzy-fee-revoked' : '')}
              columns={[
                { title: '收款日期', dataIndex: 'payDate', width: 110 },
                { title: '账期', dataIndex: 'periodNo', width: 70, render: (v: number) => `第${v}期` },
                { title: '金额', dataIndex: 'amount', align: 'right', render: showYuan },
                {
                  title: '方式',
                  dataIndex: 'payMethod',
                  width: 90,
                  render: (v: string) => PAY_METHOD_NAMES[v] ?? v,
                },
                { title: '付款人', dataIndex: 'payer', width: 160, ellipsis: true, render: (v: string) => v || '—' },
                { title: '收据编号', dataIndex: 'receiptNo', width: 120, render: (v: string) => v || '—' },
                { title: '登记人', dataIndex: 'operatorName', width: 80 },
                {
                  title: '操作',
                  key: 'op',
                  width: 80,
                  render: (_, r) =>
                    r.revoked ? (
                      <Tag>已撤销</Tag>
                    ) : can(['fee:charge:delete']) && r.editable ? (
                      <Button type="link" size="small" danger onClick={() => revoke(r)}>
                        撤销
                      </Button>
                    ) : null,
                },
              ]}
            />
          </div>
        </Space>
      )}
    </Drawer>
  );
}
