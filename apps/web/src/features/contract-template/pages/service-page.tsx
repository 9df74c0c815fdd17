import { EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  AMOUNT_MAX_LEN,
  AMOUNT_RE,
  JOB_TYPES,
  jobTypeOf,
  SERVICE_BRI_NAME_MAX,
  SERVICE_MSG,
  SERVICE_NAME_MAX,
  type ServiceItem,
  serviceItemSaveCall,
  serviceItemStaticCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Switch, Table, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { SearchBar, type SearchButton } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { act } from '../../customer/api';
import { TEMPLATE_KEYS, useServiceItems } from '../api';
import { ImportDialog } from '../components/import-dialog';
import '../contract-template.css';

interface SearchValues {
  service_name?: string;
  service_static?: '' | '0' | '1';
}

interface FormValues {
  serviceName: string;
  serviceBriName: string;
  jobType: string;
  price: string;
  service_static: boolean;
  sort: number;
}

function ServiceDialog({
  item,
  onClose,
  onSaved,
}: {
  item: ServiceItem | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const editing = item !== null && item !== 'new' ? item : null;
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    const r = await act(
      serviceItemSaveCall,
      {
        ...(editing ? { id: editing.id } : {}),
        serviceName: v.serviceName.trim(),
        serviceBriName: (v.serviceBriName ?? '').trim(),
        jobType: v.jobType as (typeof JOB_TYPES)[number]['value'],
        price: v.price.trim(),
        service_static: v.service_static ? '1' : '0',
        sort: v.sort ?? 0,
      },
      SERVICE_MSG.saved,
    );
    setSaving(false);
    if (r.ok) {
      onSaved();
      onClose();
    }
  };
  return (
    <Modal
      open={item !== null}
      title={editing ? '编辑服务项目' : '新增服务项目'}
      width={520}
      onCancel={onClose}
      onOk={submit}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ flex: '88px' }}
        preserve={false}
        initialValues={
          editing
            ? { ...editing, service_static: editing.service_static === '1' }
            : { serviceName: '', serviceBriName: '', jobType: undefined, price: '', service_static: true, sort: 0 }
        }
      >
        <Form.Item
          name="serviceName"
          label="服务名称"
          rules={[
            { required: true, whitespace: true, message: SERVICE_MSG.nameRequired },
            { max: SERVICE_NAME_MAX, message: SERVICE_MSG.nameTooLong },
          ]}
        >
          <Input placeholder="例如 记账报税" />
        </Form.Item>
        <Form.Item
          name="serviceBriName"
          label="服务简称"
          rules={[{ max: SERVICE_BRI_NAME_MAX, message: SERVICE_MSG.briTooLong }]}
        >
          <Input placeholder="选填，例如 记账" />
        </Form.Item>
        <Form.Item name="jobType" label="业务类型" rules={[{ required: true, message: SERVICE_MSG.jobTypeRequired }]}>
          <Select
            placeholder="请选择业务类型"
            options={JOB_TYPES.map((j) => ({ value: j.value, label: <Tag color={j.color}>{j.label}</Tag> }))}
          />
        </Form.Item>
        <Form.Item
          name="price"
          label="单价（元）"
          rules={[
            { required: true, whitespace: true, message: SERVICE_MSG.priceRequired },
            { max: AMOUNT_MAX_LEN, message: SERVICE_MSG.priceTooLong },
            { pattern: AMOUNT_RE, message: SERVICE_MSG.pricePattern },
          ]}
        >
          <Input placeholder="0.00" inputMode="decimal" />
        </Form.Item>
        <Form.Item name="sort" label="排序" tooltip="数字小的排在前面">
          <InputNumber min={0} max={9999} precision={0} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="service_static" label="状态" valuePropName="checked">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 服务项目 (/contract/htsz/fwxm): the agency's services with job type and unit price. */
export function ServicePage() {
  useDocumentTitle('服务项目');
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [filter, setFilter] = useState<SearchValues>({});
  const [editing, setEditing] = useState<ServiceItem | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const list = useServiceItems(false, filter.service_name ?? '');
  const reload = () => queryClient.invalidateQueries({ queryKey: TEMPLATE_KEYS.all });
  const rows = (list.data?.list ?? []).filter(
    (s) => !filter.service_static || s.service_static === filter.service_static,
  );
  const canEdit = can(['contract:service:edit']);

  const buttons: SearchButton[] = [];
  if (canEdit) {
    buttons.push({
      key: 'add',
      label: '新增服务项目',
      icon: <PlusOutlined />,
      type: 'primary',
      onClick: () => setEditing('new'),
    });
  }
  if (can(['contract:service:import'])) {
    buttons.push({ key: 'import', label: '导入服务项目', icon: <UploadOutlined />, onClick: () => setImporting(true) });
  }

  const columns: TableProps<ServiceItem>['columns'] = [
    { key: 'no', title: '序号', width: 64, align: 'center', render: (_v, _r, i) => i + 1 },
    { key: 'name', title: '服务名称', dataIndex: 'serviceName' },
    { key: 'bri', title: '服务简称', render: (_v, r) => r.serviceBriName || <span className="dzy-tpl-muted">—</span> },
    {
      key: 'jobType',
      title: '业务类型',
      width: 120,
      render: (_v, r) => (
        <Tag color={jobTypeOf(r.jobType)?.color ?? 'default'}>{jobTypeOf(r.jobType)?.label ?? '其他'}</Tag>
      ),
    },
    {
      key: 'price',
      title: '单价（元）',
      width: 140,
      align: 'right',
      render: (_v, r) => <span className="dzy-tpl-money">{r.price}</span>,
    },
    {
      key: 'static',
      title: '状态',
      width: 100,
      align: 'center',
      render: (_v, r) => (
        <Switch
          checked={r.service_static === '1'}
          disabled={!canEdit}
          checkedChildren="启用"
          unCheckedChildren="停用"
          aria-label={`状态 ${r.serviceName}`}
          onChange={async (on) => {
            const done = await act(
              serviceItemStaticCall,
              { id: r.id, service_static: on ? '1' : '0' },
              on ? '已启用' : '已停用',
            );
            if (done.ok) void reload();
          }}
        />
      ),
    },
    {
      key: 'op',
      title: '操作',
      width: 100,
      render: (_v, r) => (
        <Auth perms={['contract:service:edit']}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(r)}>
            编辑
          </Button>
        </Auth>
      ),
    },
  ];

  return (
    <div>
      <SearchBar<SearchValues>
        theme="popup"
        form={form}
        buttons={buttons}
        onSearch={(v) =>
          setFilter({ service_name: (v.service_name ?? '').trim(), service_static: v.service_static ?? '' })
        }
        fields={[
          {
            name: 'service_name',
            label: '服务名称',
            node: <Input allowClear placeholder="请输入服务名称" maxLength={50} style={{ width: 200 }} />,
          },
          {
            name: 'service_static',
            label: '状态',
            node: (
              <Select
                allowClear
                placeholder="全部"
                style={{ width: 120 }}
                options={[
                  { value: '1', label: '启用' },
                  { value: '0', label: '停用' },
                ]}
              />
            ),
          },
        ]}
      />
      <div className="dzy-tpl-card">
        <Space className="dzy-tpl-legend" size={4} wrap>
          <span>业务类型：</span>
          {JOB_TYPES.map((j) => (
            <Tag key={j.value} color={j.color}>
              {j.label}
            </Tag>
          ))}
          <span className="dzy-tpl-muted">（颜色用于合同模板和合同中标识服务项目）</span>
        </Space>
        <Table<ServiceItem>
          rowKey="id"
          size="middle"
          loading={list.isPending}
          columns={columns}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: '还没有服务项目，点击“新增服务项目”添加' }}
        />
      </div>
      <ServiceDialog item={editing} onClose={() => setEditing(null)} onSaved={() => void reload()} />
      <ImportDialog
        mode={importing ? 'service' : null}
        onClose={() => setImporting(false)}
        onDone={() => void reload()}
      />
    </div>
  );
}
