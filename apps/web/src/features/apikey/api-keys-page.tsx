import { CopyOutlined, PlusOutlined } from '@ant-design/icons';
import {
  API_KEY_NAME_MAX,
  APIKEY_MSG,
  APIKEY_PAGE_SIZES,
  type ApiKey,
  apiKeyCreateCall,
  apiKeyListCall,
  apiKeyRevokeCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Tree,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { usePagedList } from '../../lib/paging';
import { call } from '../../lib/request';
import { keyPermTree, PERM_TITLES, permsOf } from './perm-tree';

const KEYS = ['apikey'];
const STATE_TAGS: Record<ApiKey['state'], { label: string; color: string }> = {
  active: { label: '有效', color: 'success' },
  expired: { label: '已过期', color: 'warning' },
  revoked: { label: '已撤销', color: 'default' },
};
const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—');

/** Copies text and says so. */
export async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast('success', '已复制');
  } catch {
    toast('warning', '复制失败，请手动选择文本复制');
  }
}

/** API 密钥 (/nested/manage/api-keys): keys for programs, with chosen permissions; shown once, revocable. */
export function ApiKeysPage() {
  useDocumentTitle('API 密钥');
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [state, setState] = useState<'' | ApiKey['state']>('');
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const list = usePagedList(apiKeyListCall, { name, state }, { queryKey: KEYS, pageSize: 10 });
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEYS });

  const revoke = async (k: ApiKey) => {
    try {
      await call(apiKeyRevokeCall, { id: k.id });
      toast('success', '已撤销');
    } catch {
      // Told by the request client.
    }
    void refresh();
  };

  const columns: TableColumnsType<ApiKey> = [
    { title: '名称', dataIndex: 'name', key: 'name', width: 160, ellipsis: true },
    {
      title: '密钥前缀',
      dataIndex: 'prefix',
      key: 'prefix',
      width: 140,
      render: (p: string) => <Typography.Text code>{p}…</Typography.Text>,
    },
    {
      title: '权限',
      dataIndex: 'perms',
      key: 'perms',
      render: (perms: string[]) => (
        <Tooltip title={perms.map((p) => PERM_TITLES.get(p) ?? p).join('、')}>
          <span>
            {perms.slice(0, 3).map((p) => (
              <Tag key={p} variant="filled">
                {PERM_TITLES.get(p) ?? p}
              </Tag>
            ))}
            {perms.length > 3 && <Typography.Text type="secondary">等 {perms.length} 项</Typography.Text>}
          </span>
        </Tooltip>
      ),
    },
    { title: '创建人', dataIndex: 'createdByName', key: 'by', width: 100, ellipsis: true },
    { title: '创建时间', dataIndex: 'createdAt', key: 'createdAt', width: 150, render: time },
    {
      title: '有效期至',
      dataIndex: 'expiresAt',
      key: 'expiresAt',
      width: 120,
      render: (v: string | null) => (v ? dayjs(v).subtract(1, 'second').format('YYYY-MM-DD') : '长期'),
    },
    { title: '最近使用', dataIndex: 'lastUsedAt', key: 'lastUsedAt', width: 150, render: time },
    {
      title: '状态',
      dataIndex: 'state',
      key: 'state',
      width: 90,
      render: (s: ApiKey['state']) => <Tag color={STATE_TAGS[s].color}>{STATE_TAGS[s].label}</Tag>,
    },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      fixed: 'right',
      render: (_, k) =>
        k.state === 'revoked' ? null : (
          <Popconfirm
            title={`撤销密钥「${k.name}」`}
            description={APIKEY_MSG.revokeConfirm}
            okText="撤销"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => revoke(k)}
            styles={{ root: { maxWidth: 340 } }}
          >
            <Button type="link" size="small" danger style={{ paddingInline: 0 }}>
              撤销
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title="API 密钥"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
          新建密钥
        </Button>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          placeholder="密钥名称"
          allowClear
          style={{ width: 220 }}
          maxLength={50}
          onSearch={(v) => setName(v.trim())}
        />
        <Select
          style={{ width: 140 }}
          value={state}
          onChange={setState}
          options={[
            { value: '', label: '全部状态' },
            { value: 'active', label: '有效' },
            { value: 'expired', label: '已过期' },
            { value: 'revoked', label: '已撤销' },
          ]}
        />
      </Space>
      <Table<ApiKey>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ x: 1100 }}
        locale={{ emptyText: name || state ? '没有符合条件的密钥' : '还没有 API 密钥' }}
        pagination={{ ...list.pagination, pageSizeOptions: [...APIKEY_PAGE_SIZES] }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, fontSize: 12 }}>
        程序调用接口时在请求头带上 Authorization: Bearer 密钥，按密钥的权限访问本机构的全部客户数据；接口说明见
        /api/openapi.json。
      </Typography.Paragraph>
      <CreateKeyDialog
        open={creating}
        onClose={(made) => {
          setCreating(false);
          if (made) {
            setSecret(made);
            void refresh();
          }
        }}
      />
      <SecretDialog secret={secret} title="密钥已创建" onClose={() => setSecret(null)} />
    </Card>
  );
}

/** The secret, once: copy it now, it is not shown again. */
export function SecretDialog({
  secret,
  title,
  onClose,
}: {
  secret: string | null;
  title: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open={secret !== null}
      title={title}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存
        </Button>
      }
    >
      <Alert type="warning" showIcon title={APIKEY_MSG.shownOnce} style={{ marginBottom: 12 }} />
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={secret ?? ''} style={{ fontFamily: 'monospace' }} />
        <Button icon={<CopyOutlined />} onClick={() => secret && copyText(secret)}>
          复制
        </Button>
      </Space.Compact>
    </Modal>
  );
}

function CreateKeyDialog({ open, onClose }: { open: boolean; onClose: (secret?: string) => void }) {
  const [form] = Form.useForm<{ name: string; expires?: Dayjs | null }>();
  const tree = useMemo(() => keyPermTree(), []);
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const perms = permsOf(checked);

  const submit = async () => {
    const v = await form.validateFields();
    if (perms.length === 0) {
      toast('warning', APIKEY_MSG.permsRequired);
      return;
    }
    setSaving(true);
    try {
      const made = await call(apiKeyCreateCall, {
        name: v.name.trim(),
        perms,
        expiresOn: v.expires ? v.expires.format('YYYY-MM-DD') : null,
      });
      form.resetFields();
      setChecked([]);
      onClose(made?.secret);
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="新建 API 密钥"
      width={640}
      okText="创建"
      cancelText="取消"
      confirmLoading={saving}
      onOk={submit}
      onCancel={() => onClose()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="name"
          label="密钥名称"
          rules={[
            { required: true, whitespace: true, message: APIKEY_MSG.nameRequired },
            { max: API_KEY_NAME_MAX, message: APIKEY_MSG.nameTooLong },
          ]}
        >
          <Input placeholder="例如：财务系统对接" maxLength={API_KEY_NAME_MAX} showCount />
        </Form.Item>
        <Form.Item name="expires" label="有效期至（不填为长期有效）">
          <DatePicker
            style={{ width: 220 }}
            disabledDate={(d) => d.isBefore(dayjs(), 'day')}
            placeholder="选择最后有效的日期"
          />
        </Form.Item>
        <Form.Item label={`权限（已选 ${perms.length} 项）`} required>
          <div style={{ maxHeight: 320, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
            <Tree
              checkable
              selectable={false}
              treeData={tree}
              defaultExpandedKeys={tree.flatMap((n) => [n.key, ...(n.children ?? []).map((c) => c.key)])}
              checkedKeys={checked}
              onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
            />
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            与角色权限同一棵树；密钥不能管理密钥和 Webhook，也不能修改账号信息。
          </Typography.Text>
        </Form.Item>
      </Form>
    </Modal>
  );
}
