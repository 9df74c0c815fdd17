import { DeleteOutlined, EditOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { WO_MSG, type WoTemplate, woTemplateDeleteCall, woTemplateStatusCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Space, Switch, Table, type TableProps, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { SearchBar } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { useWoTemplates, WO_KEYS } from '../api';
import { WoImportDialog } from '../components/import-dialog';
import { TemplateDialog } from '../components/template-dialog';
import '../workorder.css';

/** 工单模板 (/customer/swgl/gdmb): named, ordered steps; switch, edit, delete, import. */
export function WoTemplatePage() {
  useDocumentTitle('工单模板');
  const { modal } = App.useApp();
  const can = useHasPerm();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ name?: string }>();
  const [name, setName] = useState('');
  const list = useWoTemplates(false, name);
  const [editing, setEditing] = useState<{ open: boolean; template: WoTemplate | null }>({
    open: false,
    template: null,
  });
  const [importing, setImporting] = useState(false);
  const [switching, setSwitching] = useState<number | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: WO_KEYS.all });
  const canEdit = can(['workorder:template:edit']);

  const toggle = async (row: WoTemplate, on: boolean) => {
    setSwitching(row.id);
    try {
      // Non-200 on the status update: the server's message as an error (business.md §8).
      await call(woTemplateStatusCall, { id: row.id, status: on ? '1' : '0' }, { handle: 'all' });
      toast('success', on ? WO_MSG.statusOn : WO_MSG.statusOff);
      void reload();
    } catch (err) {
      toast('error', err instanceof ApiError ? err.message : '操作失败，请稍后重试');
    } finally {
      setSwitching(null);
    }
  };

  const remove = (row: WoTemplate) =>
    modal.confirm({
      title: '提示',
      content: WO_MSG.deleteTemplateConfirm,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(woTemplateDeleteCall, { id: row.id }, { handle: 'all' });
          toast('success', WO_MSG.deleted);
          void reload();
        } catch (err) {
          toast('warning', err instanceof ApiError ? err.message : '删除失败，请稍后重试', 2000);
        }
      },
    });

  const columns: TableProps<WoTemplate>['columns'] = [
    { key: 'index', title: '序号', width: 64, align: 'center', render: (_v, _r, i) => i + 1 },
    {
      key: 'name',
      title: '模板名称',
      width: 150,
      render: (_v, r) => (
        <Tooltip title={r.remark || undefined}>
          <span className="dzy-wo-strong">{r.name}</span>
        </Tooltip>
      ),
    },
    {
      key: 'steps',
      title: '办理步骤',
      render: (_v, r) => (
        <span className="dzy-wo-flow">
          {r.steps.map((s, i) => (
            <span key={s.id} className="dzy-wo-flow-step">
              {i > 0 && <span className="dzy-wo-arrow">→</span>}
              {s.name}
              <span className="dzy-wo-muted">
                （{s.stationName || '负责人'}·{s.days}天）
              </span>
            </span>
          ))}
        </span>
      ),
    },
    { key: 'days', title: '预计天数', width: 96, align: 'right', render: (_v, r) => `${r.totalDays} 天` },
    {
      key: 'services',
      title: '关联服务项目',
      width: 160,
      render: (_v, r) =>
        r.services.length ? (
          r.services.map((s) => <Tag key={s.id}>{s.serviceName}</Tag>)
        ) : (
          <span className="dzy-wo-muted">—</span>
        ),
    },
    {
      key: 'status',
      title: '状态',
      width: 90,
      align: 'center',
      render: (_v, r) => (
        <Switch
          checked={r.status === '1'}
          disabled={!canEdit}
          loading={switching === r.id}
          checkedChildren="启用"
          unCheckedChildren="停用"
          aria-label={`模板状态 ${r.name}`}
          onChange={(on) => toggle(r, on)}
        />
      ),
    },
    {
      key: 'op',
      title: '操作',
      width: 140,
      render: (_v, r) => (
        <Space size={0}>
          <Auth perms={['workorder:template:edit']}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setEditing({ open: true, template: r })}
            >
              编辑
            </Button>
          </Auth>
          <Auth perms={['workorder:template:delete']}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(r)}>
              删除
            </Button>
          </Auth>
        </Space>
      ),
    },
  ];

  return (
    <div>
      <SearchBar<{ name?: string }>
        theme="popup"
        form={form}
        onSearch={(v) => setName((v.name ?? '').trim())}
        fields={[
          {
            name: 'name',
            label: '模板名称',
            node: <Input allowClear placeholder="请输入模板名称" maxLength={50} style={{ width: 220 }} />,
          },
        ]}
      />
      <div className="dzy-wo-card">
        <div className="dzy-wo-toolbar">
          <Auth perms={['workorder:template:edit']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ open: true, template: null })}>
              新增工单模板
            </Button>
          </Auth>
          <Auth perms={['workorder:template:import']}>
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              批量导入
            </Button>
          </Auth>
        </div>
        <Table<WoTemplate>
          rowKey="id"
          size="middle"
          loading={list.isPending || list.isFetching}
          columns={columns}
          dataSource={list.isError ? [] : (list.data ?? [])}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: name ? '没有符合条件的模板' : '还没有工单模板，点击“新增工单模板”创建' }}
        />
      </div>
      <TemplateDialog
        open={editing.open}
        template={editing.template}
        onClose={() => setEditing({ open: false, template: null })}
        onSaved={() => void reload()}
      />
      <WoImportDialog
        kind={importing ? 'template' : null}
        onClose={() => setImporting(false)}
        onDone={() => void reload()}
      />
    </div>
  );
}
