import {
  type AgencyAccount,
  accountListCall,
  BENEFIT_PLANS,
  type BenefitGrant,
  brandAssignCall,
  brandListCall,
  grantListCall,
  setting365SaveZhztCall,
  settingSaveZhztByAgencyIdCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import {
  AdminFormModal,
  AdminTable,
  AdminToolbar,
  actionsColumn,
  useAdminList,
} from '../../components/admin-list/admin-list';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';

const KEY = ['platform-benefits'];
type Row = AgencyAccount & { id: number };
const QYZT_COLOR: Record<string, string> = { '1': 'green', '2': 'orange', '3': 'red', '0': 'default' };

/** 机构权益 (/platform/benefit): each agency's plan, expiry, authorised clients, 365 service and provider. */
export function BenefitAdminPage() {
  useDocumentTitle('机构权益');
  const [keyword, setKeyword] = useState('');
  const [granting, setGranting] = useState<Row | null>(null);
  const [history, setHistory] = useState<Row | null>(null);
  const { list, refresh } = useAdminList(accountListCall, keyword ? { keyword } : {}, KEY);
  const providers = useQuery({
    queryKey: ['platform-brands', 'options'],
    queryFn: () => call(brandListCall, { pageNo: 1, pageSize: 100 }),
  });

  const toggle365 = async (r: Row, on: boolean) => {
    try {
      await call(setting365SaveZhztCall, {
        agencyId: r.agencyId,
        service365: on ? '1' : '0',
        expiresOn: on ? dayjs().add(1, 'year').format('YYYY-MM-DD') : null,
      });
      toast('success', on ? '已开通365基础服务（一年）' : '已停用365基础服务');
      refresh();
    } catch {
      // Told by the request client.
    }
  };
  const assign = async (r: Row, providerId: number | null) => {
    try {
      await call(brandAssignCall, { agencyId: r.agencyId, providerId });
      toast('success', '服务商已更新');
      refresh();
    } catch {
      // Told by the request client.
    }
  };

  return (
    <Card variant="borderless" title="机构权益">
      <AdminToolbar search={{ placeholder: '按机构名称搜索', onSearch: setKeyword }} onRefresh={refresh} />
      <AdminTable<Row>
        rowKey="id"
        loading={list.isFetching}
        rows={list.data?.list}
        pagination={list.pagination}
        scrollX={1180}
        emptyText="暂无机构"
        columns={[
          { title: '机构', dataIndex: 'agencyName', width: 220 },
          { title: '权益版本', dataIndex: 'planLabel', width: 100 },
          {
            title: '状态',
            dataIndex: 'qyztLabel',
            width: 100,
            render: (v: string, r) => <Tag color={QYZT_COLOR[r.qyzt] ?? 'default'}>{v}</Tag>,
          },
          {
            title: '到期日',
            dataIndex: 'expiresOn',
            width: 150,
            render: (v: string | null, r) =>
              v ? `${v}${r.daysLeft !== null && r.daysLeft >= 0 ? `（剩${r.daysLeft}天）` : ''}` : '—',
          },
          {
            title: '客户数（已用/授权）',
            key: 'clients',
            width: 150,
            render: (_, r) => `${r.clientsUsed} / ${r.clientCount ?? '不限'}`,
          },
          {
            title: '365基础服务',
            dataIndex: 'service365',
            width: 200,
            render: (v: string, r) => (
              <Space size={6}>
                <Switch
                  size="small"
                  checked={v === '1'}
                  onChange={(on) => void toggle365(r, on)}
                  aria-label="365基础服务"
                />
                {/* '' is never set by the operator: nothing is refused (migration 0038). */}
                <Typography.Text type={r.service365Active ? 'secondary' : 'danger'} style={{ fontSize: 12 }}>
                  {v === ''
                    ? '未设置（不限制）'
                    : v === '0'
                      ? '已停用'
                      : r.service365Active
                        ? `至 ${r.service365ExpiresOn ?? '长期'}`
                        : '已到期'}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: '服务商',
            dataIndex: 'providerId',
            width: 180,
            render: (v: number | null, r) => (
              <Select<number | null>
                size="small"
                style={{ width: 160 }}
                value={v}
                onChange={(id) => void assign(r, id ?? null)}
                options={[
                  { value: null, label: '平台默认' },
                  ...(providers.data?.list ?? []).map((p) => ({ value: p.id, label: p.name })),
                ]}
              />
            ),
          },
          actionsColumn(
            (r) => [
              { label: '开通/续期', onClick: () => setGranting(r) },
              { label: '记录', onClick: () => setHistory(r) },
            ],
            { width: 150 },
          ),
        ]}
      />
      <GrantForm
        row={granting}
        onClose={() => setGranting(null)}
        onSaved={() => {
          setGranting(null);
          refresh();
        }}
      />
      <GrantHistory row={history} onClose={() => setHistory(null)} />
    </Card>
  );
}

interface GrantValues {
  plan: string;
  range: [Dayjs, Dayjs];
  unlimited: boolean;
  clientCount: number | null;
  remark: string;
}

function GrantForm({ row, onClose, onSaved }: { row: Row | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<GrantValues>();
  const unlimited = Form.useWatch('unlimited', form);
  const start = row?.expiresOn && dayjs(row.expiresOn).isAfter(dayjs()) ? dayjs(row.expiresOn).add(1, 'day') : dayjs();
  return (
    <AdminFormModal<GrantValues>
      title={row ? `开通/续期权益：${row.agencyName}` : ''}
      open={row !== null}
      width={560}
      form={form}
      name="grantForm"
      labelWidth={96}
      savedText="权益已保存"
      initialValues={{
        plan: row?.plan || 'standard',
        range: [start, start.add(1, 'year').subtract(1, 'day')],
        unlimited: row ? row.clientCount === null : false,
        clientCount: row?.clientCount ?? Math.max(row?.clientsUsed ?? 0, 100),
        remark: '',
      }}
      save={async (v) => {
        if (!row) return;
        await call(settingSaveZhztByAgencyIdCall, {
          agencyId: row.agencyId,
          plan: v.plan as (typeof BENEFIT_PLANS)[number]['value'],
          startsOn: v.range[0].format('YYYY-MM-DD'),
          expiresOn: v.range[1].format('YYYY-MM-DD'),
          clientCount: v.unlimited ? null : (v.clientCount ?? 0),
          remark: v.remark,
        });
      }}
      onSaved={onSaved}
      onCancel={onClose}
    >
      <Form.Item label="权益版本" name="plan" rules={[{ required: true, message: '请选择权益版本' }]}>
        <Select options={BENEFIT_PLANS.map((p) => ({ value: p.value, label: p.label }))} />
      </Form.Item>
      <Form.Item label="有效期" name="range" rules={[{ required: true, message: '请选择有效期' }]}>
        <DatePicker.RangePicker style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item label="不限客户数" name="unlimited" valuePropName="checked">
        <Switch />
      </Form.Item>
      {unlimited ? null : (
        <Form.Item
          label="授权客户数"
          name="clientCount"
          extra={row ? `该机构现有${row.clientsUsed}家客户` : undefined}
          rules={[{ required: true, message: '请输入授权客户数' }]}
        >
          <InputNumber min={0} max={100000} precision={0} style={{ width: 180 }} />
        </Form.Item>
      )}
      <Form.Item label="备注" name="remark">
        <Input.TextArea maxLength={200} rows={2} />
      </Form.Item>
    </AdminFormModal>
  );
}

function GrantHistory({ row, onClose }: { row: Row | null; onClose: () => void }) {
  const grants = useQuery({
    queryKey: ['platform-benefit-grants', row?.agencyId],
    queryFn: () => call(grantListCall, { agencyId: row?.agencyId ?? 0 }),
    enabled: row !== null,
  });
  return (
    <Modal
      title={row ? `权益记录：${row.agencyName}` : ''}
      open={row !== null}
      width={760}
      footer={null}
      onCancel={onClose}
    >
      <Table<BenefitGrant>
        rowKey="id"
        size="small"
        loading={grants.isFetching}
        dataSource={grants.data ?? []}
        pagination={false}
        locale={{ emptyText: '暂无开通记录' }}
        columns={[
          { title: '版本', dataIndex: 'planLabel', width: 90 },
          { title: '有效期', key: 'range', render: (_, g) => `${g.startsOn} 至 ${g.expiresOn}` },
          { title: '授权客户数', dataIndex: 'clientCount', width: 100, render: (v: number | null) => v ?? '不限' },
          { title: '操作人', dataIndex: 'grantedBy', width: 110 },
          { title: '备注', dataIndex: 'remark' },
        ]}
      />
    </Modal>
  );
}
