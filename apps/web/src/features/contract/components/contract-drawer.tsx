import { contractInfoCall, jobTypeColor, PAY_CYCLE_NAMES } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Drawer, Spin, Table, Tag, Typography } from 'antd';
import { ContractWarning } from '../../../components/contract-warning';
import { call } from '../../../lib/request';
import { StatusTag } from './status-tag';

/** 查看合同: terms, service lines and the receivable schedule. */
export function ContractDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['contract', 'detail', id],
    queryFn: () => call(contractInfoCall, { id: id as number }),
    enabled: id !== null,
  });
  const d = detail.data;
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
    </Drawer>
  );
}
