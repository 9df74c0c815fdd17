import { PlusOutlined } from '@ant-design/icons';
import {
  APIKEY_MSG,
  DELIVERY_STATES,
  deliveryStateOf,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  webhookCreateCall,
  webhookDeliveriesCall,
  webhookEnableCall,
  webhookEventLabel,
  webhookListCall,
  webhookPingCall,
  webhookReplayCall,
  webhookUpdateCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Drawer,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { usePagedList } from '../../lib/paging';

/**
 * A URL as pasted or typed with an IME on: spaces around it dropped and full-width ASCII (ｈｔｔｐｓ：／／)
 * made half width, so the form checks and sends what the server will keep. A URL holds only ASCII.
 */
const urlInput = (value: unknown) =>
  typeof value === 'string'
    ? value
        .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
        .replace(/\u3000/g, ' ')
        .trim()
    : value;

import { call } from '../../lib/request';
import { SecretDialog } from './api-keys-page';

const KEYS = ['webhook'];
const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '—');
const stateTag = (s: string | null) => {
  const d = s ? deliveryStateOf(s) : undefined;
  return d ? <Tag color={d.color}>{d.label}</Tag> : <Typography.Text type="secondary">—</Typography.Text>;
};

/** Webhook (/nested/manage/webhooks): where the agency's events are sent, and each address's delivery log. */
export function WebhooksPage() {
  useDocumentTitle('Webhook');
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: KEYS, queryFn: () => call(webhookListCall, {}) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEYS });
  const [editing, setEditing] = useState<Webhook | null | undefined>(undefined);
  const [secret, setSecret] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);

  const toggle = async (w: Webhook, enabled: boolean) => {
    try {
      await call(webhookEnableCall, { id: w.id, enabled });
      toast('success', enabled ? '已启用' : '已停用');
    } catch {
      // Told by the request client.
    }
    void refresh();
  };
  const ping = async (w: Webhook) => {
    try {
      await call(webhookPingCall, { id: w.id });
      toast('success', APIKEY_MSG.pinged);
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const columns: TableColumnsType<Webhook> = [
    {
      title: '接收地址',
      dataIndex: 'url',
      key: 'url',
      ellipsis: true,
      render: (u: string, w) => (
        <span>
          <Typography.Text copyable={{ text: u }}>{u}</Typography.Text>
          {w.remark && <Typography.Text type="secondary">（{w.remark}）</Typography.Text>}
        </span>
      ),
    },
    {
      title: '事件',
      dataIndex: 'events',
      key: 'events',
      width: 300,
      render: (events: string[]) => (
        <Space size={[0, 4]} wrap>
          {events.map((e) => (
            <Tag key={e} variant="filled">
              {webhookEventLabel(e)}
            </Tag>
          ))}
        </Space>
      ),
    },
    {
      title: '最近投递',
      key: 'last',
      width: 210,
      render: (_, w) => (
        <Space size={4}>
          {stateTag(w.lastState)}
          {w.lastAt && <Typography.Text type="secondary">{time(w.lastAt)}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: '启用',
      dataIndex: 'enabled',
      key: 'enabled',
      width: 80,
      render: (on: boolean, w) => (
        <Popconfirm
          title={on ? '停用后不再向此地址投递事件，是否继续？' : '启用此接收地址？'}
          okText="确定"
          cancelText="取消"
          onConfirm={() => toggle(w, !on)}
        >
          <Switch checked={on} size="small" />
        </Popconfirm>
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 210,
      render: (_, w) => (
        <Space size={12}>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setLogOf(w)}>
            投递记录
          </Button>
          <Button type="link" size="small" style={{ paddingInline: 0 }} disabled={!w.enabled} onClick={() => ping(w)}>
            发送测试
          </Button>
          <Button type="link" size="small" style={{ paddingInline: 0 }} onClick={() => setEditing(w)}>
            编辑
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title="Webhook"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)}>
          新增接收地址
        </Button>
      }
    >
      <Table<Webhook>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={false}
        scroll={{ x: 1000 }}
        locale={{ emptyText: '还没有接收地址' }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
        每次投递带 X-Dzy-Timestamp 和 X-Dzy-Signature（sha256=HMAC(密钥, 时间戳 + "." + 请求体)），请校验后再处理；
        失败后依次在 1 分钟、5 分钟、30 分钟、2 小时、12 小时后重试，共 6 次。
      </Typography.Paragraph>
      <WebhookDialog
        webhook={editing}
        onClose={(made) => {
          setEditing(undefined);
          if (made) setSecret(made);
          void refresh();
        }}
      />
      <SecretDialog secret={secret} title="接收地址已添加：签名密钥" onClose={() => setSecret(null)} />
      <DeliveriesDrawer webhook={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}

function WebhookDialog({
  webhook,
  onClose,
}: {
  webhook: Webhook | null | undefined;
  onClose: (secret?: string) => void;
}) {
  const [form] = Form.useForm<{ url: string; events: string[]; remark: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const body = { url: String(urlInput(v.url)), events: v.events, remark: (v.remark ?? '').trim() };
      if (webhook) {
        await call(webhookUpdateCall, { ...body, id: webhook.id });
        toast('success', APIKEY_MSG.saved);
        onClose();
      } else {
        const made = await call(webhookCreateCall, body);
        onClose(made?.secret);
      }
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={webhook !== undefined}
      title={webhook ? '编辑接收地址' : '新增接收地址'}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => onClose()}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={webhook ? { url: webhook.url, events: webhook.events, remark: webhook.remark } : { events: [] }}
      >
        <Form.Item
          name="url"
          label="接收地址"
          normalize={urlInput}
          rules={[
            { required: true, whitespace: true, message: APIKEY_MSG.urlRequired },
            { pattern: /^https?:\/\/[^\s/]+/i, message: APIKEY_MSG.urlBad },
          ]}
        >
          <Input placeholder="https://example.com/dzy-webhook" maxLength={500} />
        </Form.Item>
        <Form.Item
          name="events"
          label="事件"
          rules={[{ required: true, type: 'array', min: 1, message: APIKEY_MSG.eventsRequired }]}
        >
          <Checkbox.Group
            options={WEBHOOK_EVENTS.map((e) => ({ value: e.value, label: `${e.label}（${e.value}）` }))}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注">
          <Input maxLength={100} placeholder="选填" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function DeliveriesDrawer({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<'' | WebhookDelivery['state']>('');
  const list = usePagedList(
    webhookDeliveriesCall,
    { webhookId: webhook?.id ?? 0, state: state as '' },
    { queryKey: ['webhook', 'deliveries'], enabled: webhook !== null, pageSize: 10 },
  );
  const replay = async (d: WebhookDelivery) => {
    try {
      await call(webhookReplayCall, { id: d.id });
      toast('success', APIKEY_MSG.replayed);
    } catch {
      // Told by the request client.
    }
    void queryClient.invalidateQueries({ queryKey: ['webhook'] });
  };
  const columns: TableColumnsType<WebhookDelivery> = [
    { title: '编号', dataIndex: 'id', key: 'id', width: 80 },
    {
      title: '事件',
      dataIndex: 'event',
      key: 'event',
      width: 120,
      render: (e: string, d) => (
        <span>
          {e === 'ping' ? '测试' : webhookEventLabel(e)}
          {d.replayOf && <Typography.Text type="secondary">（重投 #{d.replayOf}）</Typography.Text>}
        </span>
      ),
    },
    { title: '状态', dataIndex: 'state', key: 'state', width: 90, render: stateTag },
    { title: '响应码', dataIndex: 'responseCode', key: 'code', width: 80, render: (c: number | null) => c ?? '—' },
    {
      title: '耗时',
      dataIndex: 'durationMs',
      key: 'ms',
      width: 80,
      render: (ms: number | null) => (ms === null ? '—' : `${ms} ms`),
    },
    { title: '次数', dataIndex: 'attempts', key: 'attempts', width: 60 },
    { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt', width: 160, render: time },
    { title: '下次重试', dataIndex: 'nextRetryAt', key: 'next', width: 160, render: time },
    { title: '错误', dataIndex: 'error', key: 'error', ellipsis: true, render: (e: string) => e || '—' },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, d) => (
        <Popconfirm title="以同样的内容重新投递一次？" okText="重新投递" cancelText="取消" onConfirm={() => replay(d)}>
          <Button type="link" size="small" style={{ paddingInline: 0 }} disabled={!webhook?.enabled}>
            重新投递
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Drawer
      open={webhook !== null}
      title={`投递记录：${webhook?.url ?? ''}`}
      size={1100}
      onClose={onClose}
      destroyOnHidden
    >
      <Space style={{ marginBottom: 12 }}>
        <Select
          style={{ width: 140 }}
          value={state}
          onChange={setState}
          options={[
            { value: '', label: '全部状态' },
            ...DELIVERY_STATES.map((s) => ({ value: s.value, label: s.label })),
          ]}
        />
        <Button onClick={() => void list.refetch()}>刷新</Button>
      </Space>
      <Table<WebhookDelivery>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ x: 1050 }}
        locale={{ emptyText: '暂无投递记录' }}
        pagination={{ ...list.pagination, pageSizeOptions: [10, 20, 50] }}
      />
    </Drawer>
  );
}
