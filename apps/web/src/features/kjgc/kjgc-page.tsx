import { SwapOutlined, TeamOutlined } from '@ant-design/icons';
import {
  BIND_STATUS,
  type BindingItem,
  customerListCall,
  decideBindCall,
  endBindCall,
  getAgencyInfoListCall,
  getEntListCall,
  getUserKjgcRelationCall,
  handoverCall,
  ORG_PAGE_SIZES,
  requestBindCall,
  switchKjgcAgencyCall,
  type Tgkh,
  takeBackCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableProps,
  Tabs,
  Tag,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';
import { useSessionInfo } from '../../lib/session';

/** Query keys of this feature; all start with 'kjgc'. */
const KEYS = { all: ['kjgc'] as const, relation: ['kjgc', 'relation'] as const };
const STATUS_COLORS: Record<number, string> = { 0: 'gold', 1: 'green', 2: 'default', 3: 'default' };
const STATUS_OPTIONS = [
  { value: 0, label: '待同意' },
  { value: 1, label: '已绑定' },
  { value: 2, label: '已拒绝' },
  { value: 3, label: '已解除' },
];
const fmt = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—');
const pagination = (page: { pageNo: number; pageSize: number }, total: number) => ({
  current: page.pageNo,
  pageSize: page.pageSize,
  total,
  showSizeChanger: true,
  pageSizeOptions: ORG_PAGE_SIZES.map(String),
  showTotal: (n: number) => `共 ${n} 条`,
});

/**
 * 会计工厂管理 (foundation.md §2 /nested/kjgcgl/kjgcxx): for an agency, its factories (requests to accept,
 * bindings to end) and the clients handed over; for a factory, its agencies and the clients it serves.
 */
export function KjgcPage() {
  const session = useSessionInfo();
  return session.orgType === 'kjgc' ? <FactoryView /> : <AgencyView />;
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: KEYS.all });
}

/** Runs a call, toasts success; failures (rejections) are told by the request client. */
async function act(fn: () => Promise<unknown>, ok: string, refresh: () => unknown) {
  try {
    await fn();
    toast('success', ok);
  } catch {
    // Told by the request client.
  }
  void refresh();
}

function BindingTable({ side }: { side: 'agency' | 'factory' }) {
  const refresh = useRefresh();
  const [status, setStatus] = useState<0 | 1 | 2 | 3 | undefined>();
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const params = { ...(status === undefined ? {} : { status }), ...page };
  const list = useQuery({
    queryKey: [...KEYS.all, 'bindings', params],
    queryFn: () => call(getAgencyInfoListCall, params),
    placeholderData: keepPreviousData,
  });
  const columns: TableProps<BindingItem>['columns'] = [
    side === 'agency'
      ? {
          title: '会计工厂',
          key: 'kjgc',
          render: (_, r) => (
            <div>
              <div>{r.kjgcMc}</div>
              <div className="dzy-muted">税号：{r.kjgcTax}</div>
            </div>
          ),
        }
      : {
          title: '代理机构',
          key: 'agency',
          render: (_, r) => (
            <div>
              <div>
                {r.agencyName} {r.current && <Tag color="blue">当前服务</Tag>}
              </div>
              <div className="dzy-muted">税号：{r.agencyTax}</div>
            </div>
          ),
        },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (_, r) => <Tag color={STATUS_COLORS[r.status]}>{r.statusName}</Tag>,
    },
    { title: '交办客户数', dataIndex: 'tgkhCount', width: 110, align: 'right' },
    { title: '申请时间', dataIndex: 'createdAt', width: 160, render: fmt },
    { title: '处理时间', key: 'decided', width: 160, render: (_, r) => fmt(r.endedAt ?? r.decidedAt) },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_, r) => (
        <Space size={0} wrap>
          {side === 'agency' && r.status === BIND_STATUS.pending && (
            <>
              <Popconfirm
                title="同意关联"
                description={`同意后，「${r.kjgcMc}」可为本机构交办给它的客户记账报税。`}
                okText="同意"
                cancelText="取消"
                onConfirm={() => act(() => call(decideBindCall, { id: r.id, accept: true }), '已同意', refresh)}
              >
                <Button type="link" size="small">
                  同意
                </Button>
              </Popconfirm>
              <Popconfirm
                title="拒绝关联"
                description={`确定拒绝「${r.kjgcMc}」的关联申请？`}
                okText="拒绝"
                okButtonProps={{ danger: true }}
                cancelText="取消"
                onConfirm={() => act(() => call(decideBindCall, { id: r.id, accept: false }), '已拒绝', refresh)}
              >
                <Button type="link" size="small" danger>
                  拒绝
                </Button>
              </Popconfirm>
            </>
          )}
          {(r.status === BIND_STATUS.bound || (side === 'factory' && r.status === BIND_STATUS.pending)) && (
            <Popconfirm
              title={r.status === BIND_STATUS.bound ? '解除关联' : '撤回申请'}
              description={
                r.status === BIND_STATUS.bound
                  ? `解除后，交办的 ${r.tgkhCount} 个客户立即收回，会计工厂随即无法访问。确定解除？`
                  : '确定撤回该关联申请？'
              }
              okText="确定"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              onConfirm={() => act(() => call(endBindCall, { id: r.id }), '已解除', refresh)}
            >
              <Button type="link" size="small" danger>
                {r.status === BIND_STATUS.bound ? '解除关联' : '撤回申请'}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        <Select
          allowClear
          placeholder="全部状态"
          style={{ width: 160 }}
          options={STATUS_OPTIONS}
          value={status}
          onChange={(v: 0 | 1 | 2 | 3 | undefined) => {
            setStatus(v);
            setPage((p) => ({ ...p, pageNo: 1 }));
          }}
        />
      </Space>
      <Table<BindingItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: side === 'agency' ? '暂无会计工厂' : '暂未关联代理机构' }}
        scroll={{ x: 900 }}
        onChange={(p) =>
          setPage({ pageNo: p.pageSize !== page.pageSize ? 1 : (p.current ?? 1), pageSize: p.pageSize ?? 20 })
        }
        pagination={pagination(page, list.data?.total ?? 0)}
      />
    </>
  );
}

/** Handed-over clients: the agency filters by factory and takes clients back; the factory reads its own. */
function ClientTable({ side, agencyId }: { side: 'agency' | 'factory'; agencyId?: number | undefined }) {
  const refresh = useRefresh();
  const [kjgcId, setKjgcId] = useState<number | undefined>();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [handing, setHanding] = useState(false);
  const params = {
    ...(kjgcId === undefined ? {} : { kjgcId }),
    ...(agencyId === undefined ? {} : { agencyId }),
    ...(keyword ? { keyword } : {}),
    ...page,
  };
  const list = useQuery({
    queryKey: [...KEYS.all, 'clients', params],
    queryFn: () => call(getEntListCall, params),
    placeholderData: keepPreviousData,
  });
  const bound = useQuery({
    queryKey: [...KEYS.all, 'bound'],
    queryFn: () => call(getAgencyInfoListCall, { status: 1, pageSize: 500 }),
    enabled: side === 'agency',
  });
  const factories = (bound.data?.list ?? []).map((b) => ({ value: b.kjgcId, label: b.kjgcMc, bindingId: b.id }));
  const columns: TableProps<Tgkh>['columns'] = [
    { title: '企业名称', dataIndex: 'qymc' },
    { title: '税号', dataIndex: 'qysh', width: 200 },
    ...(side === 'agency' ? [{ title: '会计工厂', dataIndex: 'kjgcMc', width: 200 }] : []),
    { title: '交办时间', dataIndex: 'handedAt', width: 160, render: fmt },
  ];
  return (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        {side === 'agency' && (
          <Select
            allowClear
            placeholder="全部会计工厂"
            style={{ width: 220 }}
            options={factories}
            value={kjgcId}
            onChange={(v: number | undefined) => {
              setKjgcId(v);
              setPage((p) => ({ ...p, pageNo: 1 }));
            }}
          />
        )}
        <Input.Search
          allowClear
          placeholder="企业名称或税号"
          style={{ width: 240 }}
          maxLength={50}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage((p) => ({ ...p, pageNo: 1 }));
          }}
        />
        {side === 'agency' && (
          <>
            <Button
              type="primary"
              icon={<TeamOutlined />}
              onClick={() => setHanding(true)}
              disabled={!factories.length}
            >
              交办客户
            </Button>
            <Popconfirm
              title="收回客户"
              description={`确定从会计工厂收回选中的 ${selected.length} 个客户？收回后会计工厂立即无法访问。`}
              okText="收回"
              okButtonProps={{ danger: true }}
              cancelText="取消"
              disabled={!selected.length}
              onConfirm={() =>
                act(
                  () => call(takeBackCall, { aeiIds: selected }),
                  '已收回',
                  () => {
                    setSelected([]);
                    return refresh();
                  },
                )
              }
            >
              <Button danger disabled={!selected.length}>
                收回{selected.length ? `（${selected.length}）` : ''}
              </Button>
            </Popconfirm>
          </>
        )}
      </Space>
      <Table<Tgkh>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        locale={{ emptyText: '暂无交办客户' }}
        rowSelection={
          side === 'agency' ? { selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) } : undefined
        }
        onChange={(p) =>
          setPage({ pageNo: p.pageSize !== page.pageSize ? 1 : (p.current ?? 1), pageSize: p.pageSize ?? 20 })
        }
        pagination={pagination(page, list.data?.total ?? 0)}
      />
      {side === 'agency' && (
        <HandoverModal open={handing} factories={factories} onClose={() => setHanding(false)} onDone={refresh} />
      )}
    </>
  );
}

function HandoverModal(props: {
  open: boolean;
  factories: { value: number; label: string; bindingId: number }[];
  onClose: () => void;
  onDone: () => unknown;
}) {
  const [form] = Form.useForm<{ bindingId: number; aeiIds: number[] }>();
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);
  const options = useQuery({
    queryKey: [...KEYS.all, 'pick', search],
    queryFn: () => call(customerListCall, { keyword: search || undefined, pageSize: 50 }),
    enabled: props.open,
  });
  const submit = async (v: { bindingId: number; aeiIds: number[] }) => {
    setSaving(true);
    try {
      const r = await call(handoverCall, v);
      if (r) toast('success', `已交办 ${r.count} 个客户`);
      form.resetFields();
      props.onClose();
      void props.onDone();
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      title="交办客户给会计工厂"
      open={props.open}
      okText="交办"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="bindingId" label="会计工厂" rules={[{ required: true, message: '请选择会计工厂' }]}>
          <Select
            placeholder="请选择已关联的会计工厂"
            options={props.factories.map((f) => ({ value: f.bindingId, label: f.label }))}
          />
        </Form.Item>
        <Form.Item name="aeiIds" label="客户" rules={[{ required: true, message: '请选择客户' }]}>
          <Select
            mode="multiple"
            showSearch={{ filterOption: false, onSearch: (v) => setSearch(v.trim()) }}
            placeholder="输入企业名称或税号搜索"
            loading={options.isFetching}
            notFoundContent={options.isFetching ? '搜索中…' : '无匹配客户'}
            options={(options.data?.list ?? []).map((c) => ({
              value: c.id,
              label: `${c.qymc}（${c.qysh || '无税号'}）`,
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function AgencyView() {
  return (
    <Card variant="borderless" title="会计工厂管理">
      <Tabs
        items={[
          { key: 'factories', label: '会计工厂', children: <BindingTable side="agency" /> },
          { key: 'clients', label: '交办客户', children: <ClientTable side="agency" /> },
        ]}
      />
    </Card>
  );
}

function FactoryView() {
  const refresh = useRefresh();
  const [form] = Form.useForm<{ agencyTax: string }>();
  const relation = useQuery({ queryKey: KEYS.relation, queryFn: () => call(getUserKjgcRelationCall, {}) });
  const r = relation.data;
  const request = async (v: { agencyTax: string }) => {
    await act(
      () => call(requestBindCall, { agencyTax: v.agencyTax }),
      '已发送关联申请，等待代理机构管理员同意',
      refresh,
    );
    form.resetFields();
  };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless" title="当前服务的代理机构">
        {r?.kjgcDlsId ? (
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="代理机构">{r.kjgcDlsMc}</Descriptions.Item>
            <Descriptions.Item label="管理员手机号">{r.kjgcDlsSjh ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="切换">
              <Select
                size="small"
                style={{ minWidth: 200 }}
                suffixIcon={<SwapOutlined />}
                value={r.kjgcDlsId}
                options={r.agencies.map((a) => ({ value: a.agencyId, label: a.agencyName }))}
                onChange={(agencyId: number) =>
                  act(
                    () => call(switchKjgcAgencyCall, { agencyId }),
                    '已切换服务的代理机构',
                    () => window.location.reload(),
                  )
                }
              />
            </Descriptions.Item>
          </Descriptions>
        ) : (
          <Empty description="请先关联代理所" image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )}
        <Form form={form} layout="inline" onFinish={request} style={{ marginTop: 12 }}>
          <Form.Item
            name="agencyTax"
            rules={[
              { required: true, whitespace: true, message: '请输入代理机构税号' },
              { pattern: /^\s*[A-Za-z0-9]{6,20}\s*$/, message: '税号为6-20位数字或字母' },
            ]}
          >
            <Input placeholder="代理机构税号" style={{ width: 260 }} maxLength={20} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit">
              申请关联
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Card variant="borderless" title="关联的代理机构">
        <BindingTable side="factory" />
      </Card>
      {r?.kjgcDlsId ? (
        <Card variant="borderless" title={`${r.kjgcDlsMc ?? ''} 交办的客户`}>
          <ClientTable side="factory" agencyId={r.kjgcDlsId} />
        </Card>
      ) : null}
    </Space>
  );
}
