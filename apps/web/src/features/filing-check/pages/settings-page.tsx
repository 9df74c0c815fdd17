import {
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPES,
  type FilingLog,
  type FilingSettingRow,
  type FilingTaxType,
  filingLogListCall,
  filingSettingListCall,
  REMIND_DAYS_MAX,
  saveIgnoredTypesCall,
  saveRemindDaysCall,
  XXBQ_ITEM_NAMES,
  xxbqListCall,
  xxbqSaveCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, InputNumber, Modal, Space, Switch, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { Auth, useHasPerm } from '../../../components/auth';
import { useDocumentTitle } from '../../../lib/document-title';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { EnterpriseFormDialog } from '../../customer/components/enterprise-form-dialog';

const KEY = ['filing-check', 'settings'] as const;

function IgnoreTab() {
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState(false);
  const [types, setTypes] = useState<FilingTaxType[]>([]);
  const list = useQuery({
    queryKey: [...KEY, 'list', keyword, page],
    queryFn: () => call(filingSettingListCall, { keyword, ...page }),
  });
  const save = () => {
    if (selected.length === 0) return message.error('请选择企业');
    modal.confirm({
      title: '设置忽略的税种',
      content: `所选 ${selected.length} 家企业的忽略税种将设为「${
        types.length ? types.map((t) => FILING_TAX_TYPE_NAMES[t]).join('、') : '无'
      }」，忽略的税种不进入申报清册与漏报检查。确定保存吗？`,
      okText: '保存',
      cancelText: '取消',
      onOk: async () => {
        await call(saveIgnoredTypesCall, { aeiIds: selected, ignoredTypes: types });
        message.success('已保存');
        setEditing(false);
        setSelected([]);
        await qc.invalidateQueries({ queryKey: KEY });
      },
    });
  };
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap>
        <Input.Search
          allowClear
          placeholder="企业名称或税号"
          style={{ width: 260 }}
          onSearch={(v) => {
            setKeyword(v.trim());
            setPage({ ...page, pageNum: 1 });
          }}
        />
        <Auth perms={['declare:setting:edit']}>
          <Button
            type="primary"
            disabled={selected.length === 0}
            onClick={() => {
              setTypes([]);
              setEditing(true);
            }}
          >
            设置忽略税种{selected.length ? `（${selected.length}）` : ''}
          </Button>
        </Auth>
      </Space>
      <Table<FilingSettingRow>
        rowKey="aeiId"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as number[]) }}
        scroll={{ x: 800 }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
          { title: '税号', dataIndex: 'qysh', width: 190 },
          {
            title: '忽略的税种',
            dataIndex: 'ignoredTypes',
            render: (ts: FilingTaxType[]) =>
              ts.length ? ts.map((t) => <Tag key={t}>{FILING_TAX_TYPE_NAMES[t]}</Tag>) : <span>无（全部办理）</span>,
          },
          { title: '负责人', dataIndex: 'allocateUserName', width: 100 },
        ]}
      />
      <Modal
        open={editing}
        title="设置忽略的税种"
        okText="保存"
        cancelText="取消"
        onOk={save}
        onCancel={() => setEditing(false)}
      >
        <p>勾选本机构不为所选企业办理的税种：</p>
        <Checkbox.Group
          value={types}
          onChange={(v) => setTypes(v as FilingTaxType[])}
          options={FILING_TAX_TYPES.map((t) => ({ value: t, label: FILING_TAX_TYPE_NAMES[t] }))}
          style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 8 }}
        />
      </Modal>
    </Space>
  );
}

function RemindForm({ days }: { days: number | undefined }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const isAdmin = useSessionInfo().isAdmin === '1';
  if (days === undefined) return null;
  return (
    <Form
      layout="inline"
      requiredMark={false}
      key={days}
      initialValues={{ remindDays: days }}
      onFinish={async (v: { remindDays: number }) => {
        await call(saveRemindDaysCall, v);
        message.success('已保存');
        await qc.invalidateQueries({ queryKey: KEY });
      }}
    >
      <Form.Item
        label="截止日前提醒天数"
        name="remindDays"
        rules={[
          {
            required: true,
            type: 'integer',
            min: 1,
            max: REMIND_DAYS_MAX,
            message: `提醒天数须为1至${REMIND_DAYS_MAX}之间的整数`,
          },
        ]}
      >
        <InputNumber disabled={!isAdmin} precision={0} addonAfter="天" style={{ width: 140 }} />
      </Form.Item>
      {isAdmin ? (
        <Button htmlType="submit" type="primary">
          保存
        </Button>
      ) : (
        <span style={{ color: '#999' }}>仅管理员可修改</span>
      )}
    </Form>
  );
}

function XxbqTab() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const has = useHasPerm();
  const can = has(['declare:setting:edit']);
  const canEditClient = has(['customer:edit']);
  const [editId, setEditId] = useState<number | null>(null);
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const list = useQuery({ queryKey: [...KEY, 'xxbq', page], queryFn: () => call(xxbqListCall, { ...page }) });
  return (
    <>
      <Table<FilingSettingRow>
        rowKey="aeiId"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        scroll={{ x: 860 }}
        pagination={{
          current: page.pageNum,
          pageSize: page.pageSize,
          total: list.data?.total ?? 0,
          showTotal: (n) => `共 ${n} 条`,
          onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
        }}
        columns={[
          { title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
          {
            title: '缺少的信息',
            dataIndex: 'lacks',
            render: (ls: FilingSettingRow['lacks']) =>
              ls.map((l) => (
                <Tag color="orange" key={l}>
                  {XXBQ_ITEM_NAMES[l]}
                </Tag>
              )),
          },
          {
            title: '三方协议',
            dataIndex: 'sfxy',
            width: 110,
            render: (v: boolean, r) => (
              <Switch
                checked={v}
                disabled={!can}
                checkedChildren="已签"
                unCheckedChildren="未签"
                onChange={async (sfxy) => {
                  await call(xxbqSaveCall, { aeiId: r.aeiId, sfxy });
                  message.success('已保存');
                  await qc.invalidateQueries({ queryKey: KEY });
                }}
              />
            ),
          },
          {
            title: '操作',
            width: 110,
            render: (_: unknown, r) =>
              canEditClient ? (
                <Button type="link" size="small" onClick={() => setEditId(r.aeiId)}>
                  去补全
                </Button>
              ) : (
                <span style={{ color: '#999' }}>请联系管理员补全</span>
              ),
          },
        ]}
      />
      <EnterpriseFormDialog
        open={editId !== null}
        id={editId ?? undefined}
        onClose={() => setEditId(null)}
        onSaved={() => void qc.invalidateQueries({ queryKey: KEY })}
      />
    </>
  );
}

function LogTab() {
  const [page, setPage] = useState({ pageNum: 1, pageSize: 20 });
  const list = useQuery({ queryKey: [...KEY, 'logs', page], queryFn: () => call(filingLogListCall, { ...page }) });
  return (
    <Table<FilingLog>
      rowKey="id"
      loading={list.isFetching}
      dataSource={list.data?.list ?? []}
      scroll={{ x: 800 }}
      pagination={{
        current: page.pageNum,
        pageSize: page.pageSize,
        total: list.data?.total ?? 0,
        showTotal: (n) => `共 ${n} 条`,
        onChange: (pageNum, pageSize) => setPage({ pageNum, pageSize }),
      }}
      columns={[
        {
          title: '时间',
          dataIndex: 'createdAt',
          width: 170,
          render: (v: string) => new Date(v).toLocaleString('zh-CN'),
        },
        { title: '操作人', dataIndex: 'userName', width: 90 },
        { title: '操作', dataIndex: 'actionName', width: 110 },
        { title: '内容', dataIndex: 'detail', width: 320 },
        { title: '企业', dataIndex: 'qymc', ellipsis: true },
      ]}
    />
  );
}

/** 申报设置 /declare/sbsz: ignored tax types per client, reminder days, 信息补全, logs. */
export function SettingsPage() {
  useDocumentTitle('申报设置');
  const days = useQuery({
    queryKey: [...KEY, 'list', '', { pageNum: 1, pageSize: 10 }],
    queryFn: () => call(filingSettingListCall, { pageNum: 1, pageSize: 10 }),
  });
  return (
    <Card variant="borderless" title="申报设置" extra={<RemindForm days={days.data?.remindDays} />}>
      <Tabs
        items={[
          { key: 'ignore', label: '税种设置', children: <IgnoreTab /> },
          { key: 'xxbq', label: '信息补全', children: <XxbqTab /> },
          { key: 'logs', label: '操作日志', children: <LogTab /> },
        ]}
      />
    </Card>
  );
}
