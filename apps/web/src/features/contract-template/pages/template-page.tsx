import {
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  PlusOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  TEMPLATE_MSG,
  TEMPLATE_PAGE_SIZES,
  type TemplateItem,
  templateDeleteCall,
  templatePageCall,
  templateStaticCall,
} from '@dzy/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Dropdown, Form, Input, Space, Switch, Table, type TableProps, Tooltip } from 'antd';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { SearchBar } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { TEMPLATE_KEYS } from '../api';
import { ImportDialog } from '../components/import-dialog';
import { JobTag } from '../components/job-tag';
import { type DialogState, TemplateDialog } from '../components/template-dialog';
import { TemplateSettingsDrawer } from '../components/template-settings-drawer';
import '../contract-template.css';

interface SearchValues {
  tempName?: string;
}

/** Non-200 replies of status change and delete: a warning with the server's message for 2 s (business.md §8). */
const WARN_MS = 2000;

async function quietCall<C extends Parameters<typeof call>[0]>(def: C, body: Parameters<typeof call<C>>[1]) {
  try {
    await call(def, body, { handle: 'all' });
    return true;
  } catch (err) {
    toast('warning', err instanceof ApiError ? err.message : '操作失败，请稍后重试', WARN_MS);
    return false;
  }
}

/** 合同模板 (/contract/htsz/htmb): query by name, add / batch import, status switch, edit, delete, settings. */
export function TemplatePage() {
  useDocumentTitle('合同模板');
  const { modal } = App.useApp();
  const can = useHasPerm();
  const { isAdmin } = useSessionInfo();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [tempName, setTempName] = useState('');
  const [page, setPage] = useState({ pageNo: 1, pageSize: TEMPLATE_PAGE_SIZES[0] as number });
  const [dialog, setDialog] = useState<DialogState>(null);
  const [importing, setImporting] = useState(false);
  const [settings, setSettings] = useState<TemplateItem | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);

  const body = { ...page, tempName };
  const list = useQuery({
    queryKey: TEMPLATE_KEYS.page(body),
    queryFn: () => call(templatePageCall, body),
    placeholderData: keepPreviousData,
  });
  // Non-200 on the list: the list is emptied and the total is 0.
  const rows = list.isError ? [] : (list.data?.list ?? []);
  const total = list.isError ? 0 : Number(list.data?.total ?? 0);
  const reload = () => queryClient.invalidateQueries({ queryKey: TEMPLATE_KEYS.all });

  const toggle = async (row: TemplateItem, on: boolean) => {
    if (isAdmin !== '1') {
      toast('warning', TEMPLATE_MSG.adminOnly, WARN_MS);
      return;
    }
    setSwitching(row.id);
    const ok = await quietCall(templateStaticCall, { id: row.id, temp_static: on ? '1' : '0' });
    setSwitching(null);
    if (ok) {
      toast('success', on ? TEMPLATE_MSG.statusOn : TEMPLATE_MSG.statusOff);
      void reload();
    }
  };

  const remove = (row: TemplateItem) =>
    modal.confirm({
      title: '提示',
      content: TEMPLATE_MSG.deleteConfirm,
      okText: '确定',
      cancelText: '取消',
      okButtonProps: { danger: true },
      onOk: async () => {
        const ok = await quietCall(templateDeleteCall, { id: row.id });
        if (ok) {
          toast('success', TEMPLATE_MSG.deleted);
          setPage((p) => ({ ...p, pageNo: 1 }));
          void reload();
        }
      },
    });

  const openSettings = (row: TemplateItem) => {
    if (row.tempStatic !== '1') {
      toast('warning', TEMPLATE_MSG.settingsDisabled);
      return;
    }
    setSettings(row);
  };

  const columns: TableProps<TemplateItem>['columns'] = [
    {
      key: 'index',
      title: '序号',
      width: 64,
      align: 'center',
      // Numbers continue across pages.
      render: (_v, _r, i) => (page.pageNo - 1) * page.pageSize + i + 1,
    },
    {
      key: 'tempName',
      title: '模板名称',
      width: 160,
      render: (_v, r) => (
        <Space size={6}>
          <span className="dzy-tpl-name">{r.tempName}</span>
          <Tooltip title={r.isVerifySet === '1' ? TEMPLATE_MSG.configured : TEMPLATE_MSG.notConfigured}>
            <SettingOutlined
              role="button"
              aria-label="模板设置"
              className={`dzy-tpl-setting ${r.isVerifySet === '1' ? 'is-set' : ''} ${r.tempStatic === '1' ? '' : 'is-off'}`}
              onClick={() => openSettings(r)}
            />
          </Tooltip>
        </Space>
      ),
    },
    {
      key: 'tempIllustration',
      title: '模板说明',
      ellipsis: { showTitle: true },
      render: (_v, r) => r.tempIllustration || <span className="dzy-tpl-muted">—</span>,
    },
    {
      key: 'tempTotalPrice',
      title: '合同总价（元）',
      width: 130,
      align: 'right',
      render: (_v, r) => <span className="dzy-tpl-money">{r.tempTotalPrice}</span>,
    },
    {
      key: 'services',
      title: '服务项目',
      width: 230,
      render: (_v, r) => {
        const names = r.tempServName ? r.tempServName.split(',') : [];
        const types = r.jobTypeList ? r.jobTypeList.split(',') : [];
        const more = names.length > 2;
        return (
          <Tooltip title={more ? names.join('、') : undefined}>
            <span className="dzy-tpl-services">
              {names.slice(0, 2).map((n, i) => (
                <JobTag key={n} name={n} jobType={types[i] ?? ''} />
              ))}
              {more && <span className="dzy-tpl-more">…</span>}
            </span>
          </Tooltip>
        );
      },
    },
    {
      key: 'tempStatic',
      title: '模板状态',
      width: 96,
      align: 'center',
      render: (_v, r) => (
        <Switch
          checked={r.tempStatic === '1'}
          loading={switching === r.id}
          checkedChildren="启用"
          unCheckedChildren="停用"
          aria-label={`模板状态 ${r.tempName}`}
          onChange={(on) => toggle(r, on)}
        />
      ),
    },
    {
      key: 'op',
      title: '操作',
      width: 136,
      render: (_v, r) => (
        <Space size={0}>
          <Auth perms={['contract:template:edit']}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ type: 2, id: r.id })}>
              编辑
            </Button>
          </Auth>
          <Auth perms={['contract:template:delete']}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(r)}>
              删除
            </Button>
          </Auth>
        </Space>
      ),
    },
  ];

  const canAdd = can(['contract:template:add']);
  const canImport = can(['contract:template:import']);
  let addButton: React.ReactNode = null;
  if (canAdd && canImport) {
    addButton = (
      <Space.Compact>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ type: 1 })}>
          新增合同模板
        </Button>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [{ key: 'import', icon: <UploadOutlined />, label: '批量导入' }],
            onClick: () => setImporting(true),
          }}
        >
          <Button type="primary" icon={<DownOutlined />} aria-label="更多新增方式" />
        </Dropdown>
      </Space.Compact>
    );
  } else if (canAdd) {
    addButton = (
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ type: 1 })}>
        新增合同模板
      </Button>
    );
  } else if (canImport) {
    addButton = (
      <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
        批量导入
      </Button>
    );
  }

  return (
    <div>
      <SearchBar<SearchValues>
        theme="popup"
        form={form}
        onSearch={(v) => {
          setTempName((v.tempName ?? '').trim());
          setPage((p) => ({ ...p, pageNo: 1 }));
        }}
        fields={[
          {
            name: 'tempName',
            label: '模板名称',
            node: <Input allowClear placeholder="请输入模板名称" maxLength={50} style={{ width: 220 }} />,
          },
        ]}
      />
      <div className="dzy-tpl-card">
        {addButton && <div className="dzy-tpl-toolbar">{addButton}</div>}
        <Table<TemplateItem>
          rowKey="id"
          size="middle"
          loading={list.isPending || list.isFetching}
          columns={columns}
          dataSource={rows}
          locale={{ emptyText: tempName ? '没有符合条件的模板' : '还没有合同模板，点击“新增合同模板”创建' }}
          onChange={(pg) => {
            const pageSize = pg.pageSize ?? page.pageSize;
            setPage({ pageNo: pageSize !== page.pageSize ? 1 : (pg.current ?? 1), pageSize });
          }}
          pagination={{
            current: page.pageNo,
            pageSize: page.pageSize,
            total,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: TEMPLATE_PAGE_SIZES.map(String),
            showTotal: (t) => `共 ${t} 条`,
          }}
        />
      </div>
      <TemplateDialog state={dialog} onClose={() => setDialog(null)} onSaved={() => void reload()} />
      <ImportDialog
        mode={importing ? 'template' : null}
        onClose={() => setImporting(false)}
        onDone={() => void reload()}
      />
      <TemplateSettingsDrawer template={settings} onClose={() => setSettings(null)} onChanged={() => void reload()} />
    </div>
  );
}
