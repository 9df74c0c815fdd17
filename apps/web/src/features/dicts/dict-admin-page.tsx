import { ExclamationCircleOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type AqUrlItem,
  type DictItem,
  deleteAqUrlCall,
  deleteDictCall,
  listAqUrlCall,
  listDictAdminCall,
  saveAqUrlCall,
  saveDictCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { usePagedList } from '../../lib/paging';
import { call } from '../../lib/request';

type Row = DictItem & { typeName: string };
interface DictValues {
  dictType: string;
  typeName: string;
  dictCode: string;
  label: string;
  sort: number;
  enabled: boolean;
}
const DICT_KEY = ['platform-dicts'];
const AQ_KEY = ['platform-aq-urls'];

/** 字典与客服 (/platform/dicts): the operator edits the dictionaries and the AI 咨询 address of each region. */
export function DictAdminPage() {
  useDocumentTitle('字典与客服');
  return (
    <Card variant="borderless" title="字典与客服">
      <Tabs
        items={[
          { key: 'dict', label: '数据字典', children: <DictTab /> },
          { key: 'aq', label: 'AI 咨询地址', children: <AqUrlTab /> },
        ]}
      />
    </Card>
  );
}

function DictTab() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [dictType, setDictType] = useState<string | undefined>();
  const [label, setLabel] = useState('');
  const [editing, setEditing] = useState<Row | 'new' | null>(null);
  const list = usePagedList(
    listDictAdminCall,
    { ...(dictType ? { dictType } : {}), ...(label ? { label } : {}) },
    { queryKey: DICT_KEY },
  );
  const types = list.data?.types ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: DICT_KEY });

  const save = async (body: DictValues & { id?: number }) => {
    try {
      await call(saveDictCall, body);
      toast('success', '保存成功');
      void refresh();
      return true;
    } catch {
      return false;
    }
  };
  const remove = (r: Row) =>
    modal.confirm({
      title: '删除字典值',
      content: `确定删除「${r.typeName}」中的「${r.label}」吗？删除后各页面不再提供该选项。`,
      okText: '删除',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(deleteDictCall, { id: r.id });
          toast('success', '删除成功');
          void refresh();
        } catch {
          // Told by the request client.
        }
      },
    });
  const toBody = (r: Row, enabled: boolean) => ({
    id: r.id,
    dictType: r.dictType,
    typeName: r.typeName,
    dictCode: r.code,
    label: r.label,
    sort: r.sort,
    enabled,
  });

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Select
            allowClear
            style={{ width: 220 }}
            placeholder="全部字典类型"
            value={dictType}
            onChange={setDictType}
            options={types.map((t) => ({ value: t.dictType, label: `${t.name}（${t.dictType}）` }))}
          />
          <Input.Search
            allowClear
            style={{ width: 220 }}
            placeholder="按名称搜索"
            onSearch={(v) => setLabel(v.trim())}
          />
        </Space>
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label="刷新" />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            新增字典值
          </Button>
        </Space>
      </Space>
      <Table<Row>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        pagination={list.pagination}
        scroll={{ x: 860 }}
        locale={{ emptyText: '暂无字典值' }}
        columns={[
          {
            title: '字典类型',
            dataIndex: 'typeName',
            width: 180,
            render: (v: string, r) => (
              <span>
                {v} <Tag>{r.dictType}</Tag>
              </span>
            ),
          },
          { title: '编码', dataIndex: 'code', width: 140 },
          { title: '名称', dataIndex: 'label' },
          { title: '排序', dataIndex: 'sort', width: 80 },
          {
            title: '启用',
            dataIndex: 'enabled',
            width: 80,
            render: (v: boolean, r) => (
              <Switch size="small" checked={v} onChange={(on) => void save(toBody(r, on))} aria-label="启用" />
            ),
          },
          {
            title: '操作',
            key: 'actions',
            width: 130,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  编辑
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(r)}>
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <DictForm
        editing={editing}
        typeOptions={types}
        defaultType={dictType}
        onClose={() => setEditing(null)}
        onSave={async (v) => {
          const ok = await save({ ...v, ...(editing && editing !== 'new' ? { id: editing.id } : {}) });
          if (ok) setEditing(null);
        }}
      />
    </>
  );
}

function DictForm({
  editing,
  typeOptions,
  defaultType,
  onClose,
  onSave,
}: {
  editing: Row | 'new' | null;
  typeOptions: { dictType: string; name: string }[];
  defaultType: string | undefined;
  onClose: () => void;
  onSave: (v: DictValues) => Promise<void>;
}) {
  const [form] = Form.useForm<DictValues>();
  const [saving, setSaving] = useState(false);
  const row = editing && editing !== 'new' ? editing : null;
  const fromType = typeOptions.find((t) => t.dictType === defaultType);
  const initial: DictValues = row
    ? {
        dictType: row.dictType,
        typeName: row.typeName,
        dictCode: row.code,
        label: row.label,
        sort: row.sort,
        enabled: row.enabled,
      }
    : { dictType: defaultType ?? '', typeName: fromType?.name ?? '', dictCode: '', label: '', sort: 0, enabled: true };
  return (
    <Modal
      title={row ? '编辑字典值' : '新增字典值'}
      open={editing !== null}
      width={520}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<DictValues>
        form={form}
        name="dictForm"
        layout="horizontal"
        labelCol={{ flex: '84px' }}
        wrapperCol={{ flex: 1 }}
        colon={false}
        initialValues={initial}
        preserve={false}
        onFinish={async (v) => {
          setSaving(true);
          await onSave({ ...v, dictType: v.dictType.trim(), dictCode: v.dictCode.trim() });
          setSaving(false);
        }}
      >
        <Form.Item
          label="字典类型"
          name="dictType"
          rules={[
            { required: true, message: '请输入字典类型' },
            { pattern: /^[a-z][a-z0-9_]*$/, message: '字典类型只能包含小写字母、数字和下划线，并以字母开头' },
          ]}
        >
          <Input placeholder="如 agency_scale" maxLength={40} disabled={row !== null} />
        </Form.Item>
        <Form.Item label="类型名称" name="typeName" rules={[{ required: true, message: '请输入类型名称' }]}>
          <Input placeholder="如 机构规模（修改将作用于该类型的全部值）" maxLength={20} />
        </Form.Item>
        <Form.Item
          label="编码"
          name="dictCode"
          rules={[
            { required: true, message: '请输入编码' },
            { pattern: /^[A-Za-z0-9_.-]+$/, message: '编码只能包含字母、数字、下划线、点和横线' },
          ]}
        >
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item label="名称" name="label" rules={[{ required: true, message: '请输入名称' }]}>
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item label="排序" name="sort" rules={[{ required: true, message: '排序须为整数' }]}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item label="启用" name="enabled" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function AqUrlTab() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AqUrlItem | 'new' | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ regionCode: string; url: string }>();
  const list = useQuery({ queryKey: AQ_KEY, queryFn: () => call(listAqUrlCall, {}) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: AQ_KEY });
  const row = editing && editing !== 'new' ? editing : null;

  const remove = (r: AqUrlItem) =>
    modal.confirm({
      title: '删除 AI 咨询地址',
      content: `确定删除「${r.regionName}」的地址吗？该地区的机构将改用上级地区或全国默认地址，都没有时显示未配置。`,
      okText: '删除',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(deleteAqUrlCall, { regionCode: r.regionCode });
          toast('success', '删除成功');
          void refresh();
        } catch {
          // Told by the request client.
        }
      },
    });

  return (
    <>
      <Space style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <span className="dzy-muted-text">
          机构打开 AI 咨询时，依次使用其所在区县、地市、省份的地址，都没有时使用全国默认地址。
        </span>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          设置地址
        </Button>
      </Space>
      <Table<AqUrlItem>
        rowKey="regionCode"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        locale={{ emptyText: '尚未配置任何地区的 AI 咨询地址，各机构打开时将提示未配置' }}
        columns={[
          {
            title: '地区',
            dataIndex: 'regionName',
            width: 200,
            render: (v: string, r) => (
              <span>
                {v} {r.regionCode && <Tag>{r.regionCode}</Tag>}
              </span>
            ),
          },
          { title: '地址', dataIndex: 'url', ellipsis: true },
          {
            title: '更新时间',
            dataIndex: 'updatedAt',
            width: 160,
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: '操作',
            key: 'actions',
            width: 130,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing(r)}>
                  编辑
                </Button>
                <Button type="link" size="small" danger onClick={() => remove(r)}>
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={row ? '编辑 AI 咨询地址' : '设置 AI 咨询地址'}
        open={editing !== null}
        width={520}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        destroyOnHidden
      >
        <Form
          form={form}
          name="aqUrlForm"
          layout="horizontal"
          labelCol={{ flex: '84px' }}
          wrapperCol={{ flex: 1 }}
          colon={false}
          preserve={false}
          initialValues={row ? { regionCode: row.regionCode, url: row.url } : { regionCode: '', url: '' }}
          onFinish={async (v) => {
            setSaving(true);
            try {
              await call(saveAqUrlCall, { regionCode: v.regionCode.trim(), url: v.url.trim() });
              toast('success', '保存成功');
              void refresh();
              setEditing(null);
            } catch {
              // Told by the request client.
            } finally {
              setSaving(false);
            }
          }}
        >
          <Form.Item
            label="地区编码"
            name="regionCode"
            extra="省、市或区县的6位编码，如 330000 浙江省、330100 杭州市；留空为全国默认"
            rules={[{ pattern: /^(\d{6})?$/, message: '地区编码须为6位数字（留空表示全国默认）' }]}
          >
            <Input maxLength={6} inputMode="numeric" disabled={row !== null} placeholder="留空为全国默认" />
          </Form.Item>
          <Form.Item
            label="地址"
            name="url"
            rules={[
              { required: true, message: '请输入以 https:// 或 http:// 开头的地址' },
              { pattern: /^https?:\/\/\S+$/i, message: '请输入以 https:// 或 http:// 开头的地址' },
            ]}
          >
            <Input placeholder="https://" maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
