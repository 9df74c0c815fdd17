import { PlusOutlined } from '@ant-design/icons';
import { contractInfoCall, jobTypeColor, PAY_CYCLE_NAMES, woServiceCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Drawer, Spin, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { ContractWarning } from '../../../components/contract-warning';
import { call } from '../../../lib/request';
import { WO_KEYS } from '../../workorder/api';
import { CreateDialog } from '../../workorder/components/create-dialog';
import { OrderDrawer } from '../../workorder/components/order-drawer';
import { StatusTag } from './status-tag';

/** 查看合同: terms, service lines and the receivable schedule. */
export function ContractDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: ['contract', 'detail', id],
    queryFn: () => call(contractInfoCall, { id: id as number }),
    enabled: id !== null,
  });
  const d = detail.data;
  // 工单 of the contract's lines: pending and in-force contracts start them (issue 29 point 7).
  const canOrders = can(['workorder:list:view']);
  const canStart = can(['workorder:add']);
  const live = d?.htzt === '1' || d?.htzt === '2';
  const lineQuery = { contractId: id ?? 0 };
  const orders = useQuery({
    queryKey: WO_KEYS.lines(lineQuery),
    queryFn: () => call(woServiceCall, lineQuery, { handle: 'all' }),
    enabled: id !== null && canOrders && live,
  });
  const [starting, setStarting] = useState<{ lineId?: number } | null>(null);
  const [openOrder, setOpenOrder] = useState<number | null>(null);
  const startable = (orders.data ?? []).filter((l) => !l.workOrderId);
  // Kept stable across renders: the dialog resets its form when these change.
  const client = useMemo(() => (d ? { id: d.aeiId, qymc: d.qymc } : null), [d]);
  const lineId = starting?.lineId;
  const contract = useMemo(
    () => (d ? { id: d.id, contractNo: d.contractNo, ...(lineId ? { lineId } : {}) } : null),
    [d, lineId],
  );
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={866}
      title={d ? `合同 ${d.contractNo}` : '合同详情'}
      destroyOnHidden
    >
      <Spin spinning={detail.isPending}>
        {d && (
          <>
            <ContractWarning aeiId={d.aeiId} ly="kh" />
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label="签约企业" span={2}>
                {d.qymc}（{d.qysh || '无税号'}）
              </Descriptions.Item>
              <Descriptions.Item label="合同编号">{d.contractNo}</Descriptions.Item>
              <Descriptions.Item label="状态">
                <StatusTag text={d.statusText} />
              </Descriptions.Item>
              <Descriptions.Item label="服务期">
                {d.startDate} 至 {d.endDate}
              </Descriptions.Item>
              <Descriptions.Item label="签订日期">{d.signDate}</Descriptions.Item>
              <Descriptions.Item label="付款周期">{PAY_CYCLE_NAMES[d.payCycle] ?? d.payCycle}</Descriptions.Item>
              <Descriptions.Item label="合同负责人">{d.contractUserName || '—'}</Descriptions.Item>
              <Descriptions.Item label="合同总价">¥{d.totalPrice}</Descriptions.Item>
              <Descriptions.Item label="合同优惠">¥{d.discount}</Descriptions.Item>
              <Descriptions.Item label="合同金额">
                <b>¥{d.amount}</b>
              </Descriptions.Item>
              <Descriptions.Item label="已收金额">¥{d.paid}</Descriptions.Item>
              {d.htzt === '3' && (
                <Descriptions.Item label="终止原因" span={2}>
                  {d.endReason || '—'}
                </Descriptions.Item>
              )}
              <Descriptions.Item label="备注" span={2}>
                {d.remark || '—'}
              </Descriptions.Item>
            </Descriptions>
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              服务项目
            </Typography.Title>
            <Table
              size="small"
              rowKey={(l) => `${l.serviceId}-${l.serviceName}`}
              pagination={false}
              dataSource={d.lines}
              columns={[
                { title: '序号', width: 60, render: (_v, _l, i) => i + 1 },
                {
                  title: '服务项目',
                  render: (_v, l) => <Tag color={jobTypeColor(l.jobType)}>{l.serviceName}</Tag>,
                },
                { title: '赠送', width: 70, render: (_v, l) => (l.isGive ? '是' : '否') },
                { title: '单价（元）', dataIndex: 'price', align: 'right' },
                { title: '优惠（元）', dataIndex: 'discount', align: 'right' },
                { title: '优惠后（元）', dataIndex: 'nowPrice', align: 'right' },
              ]}
            />
            {canOrders && live && (
              <>
                <div className="dzy-contract-wo-head">
                  <Typography.Title level={5} style={{ margin: 0 }}>
                    工单
                  </Typography.Title>
                  {canStart && startable.length > 0 && (
                    <Button size="small" icon={<PlusOutlined />} onClick={() => setStarting({})}>
                      为本合同发起工单
                    </Button>
                  )}
                </div>
                <Table
                  size="small"
                  rowKey="lineId"
                  pagination={false}
                  loading={orders.isPending}
                  dataSource={orders.data ?? []}
                  locale={{ emptyText: '暂无服务项目' }}
                  data-testid="contract-wo-lines"
                  columns={[
                    { title: '服务项目', dataIndex: 'serviceName' },
                    {
                      title: '工单模板',
                      render: (_v, l) =>
                        l.templateId ? (
                          l.templateName
                        ) : (
                          <Typography.Text type="secondary">未关联（发起时选择）</Typography.Text>
                        ),
                    },
                    {
                      title: '工单',
                      width: 200,
                      render: (_v, l) =>
                        l.workOrderId ? (
                          <Button
                            type="link"
                            size="small"
                            style={{ padding: 0 }}
                            onClick={() => setOpenOrder(l.workOrderId)}
                          >
                            {l.orderNo}
                          </Button>
                        ) : canStart ? (
                          <Button
                            type="link"
                            size="small"
                            style={{ padding: 0 }}
                            aria-label={`发起工单：${l.serviceName}`}
                            onClick={() => setStarting({ lineId: l.lineId })}
                          >
                            发起工单
                          </Button>
                        ) : (
                          <Typography.Text type="secondary">未发起</Typography.Text>
                        ),
                    },
                  ]}
                />
              </>
            )}
            <Typography.Title level={5} style={{ marginTop: 20 }}>
              应收计划
            </Typography.Title>
            <Table
              size="small"
              rowKey="periodNo"
              pagination={false}
              dataSource={d.receivables}
              locale={{ emptyText: d.htzt === '1' ? '合同提交后生成应收计划' : '暂无应收' }}
              columns={[
                { title: '期数', dataIndex: 'periodNo', width: 70 },
                { title: '服务期间', render: (_v, p) => `${p.periodStart} 至 ${p.periodEnd}` },
                { title: '应收日期', dataIndex: 'dueDate' },
                { title: '应收（元）', dataIndex: 'amount', align: 'right' },
                { title: '已收（元）', dataIndex: 'paid', align: 'right' },
              ]}
            />
          </>
        )}
      </Spin>
      {client && contract && (
        <CreateDialog
          open={starting !== null}
          client={client}
          contract={contract}
          onClose={() => setStarting(null)}
          onCreated={(orderId) => {
            void queryClient.invalidateQueries({ queryKey: WO_KEYS.all });
            setOpenOrder(orderId);
          }}
        />
      )}
      <OrderDrawer id={openOrder} onClose={() => setOpenOrder(null)} />
    </Drawer>
  );
}
