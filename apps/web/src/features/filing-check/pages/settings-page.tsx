import {
  CONFIRM_DAYS_MAX,
  CONFIRM_THRESHOLD_MAX_FEN,
  type ConfirmSetting,
  DIFF_PERCENT_MAX,
  FILING_SETTING_MSG,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPES,
  type FilingLog,
  type FilingSettingRow,
  type FilingTaxType,
  filingLogListCall,
  filingSettingListCall,
  REMIND_DAYS_MAX,
  saveConfirmSettingCall,
  saveIgnoredTypesCall,
  saveRemindDaysCall,
  taxYuanToFen,
  XXBQ_ITEM_NAMES,
  XXBQ_ITEMS,
  type XxbqItem,
  xxbqListCall,
  xxbqSaveCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Checkbox, Form, Input, InputNumber, Modal, Select, Switch, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { FilteredMarker, SearchBar } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { EnterpriseFormDialog } from '../../customer/components/enterprise-form-dialog';

const KEY = ['filing-check', 'settings'] as const;

interface IgnoreSearch {
  keyword?: string;
  ignoredOnly?: boolean;
}

function IgnoreTab() {
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const can = useHasPerm();
  const [form] = Form.useForm<IgnoreSearch>();
  const [filter, setFilter] = useState<IgnoreSearch>({});
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState(false);
  const [types, setTypes] = useState<FilingTaxType[]>([]);
  const list = usePagedList(
    filingSettingListCall,
    { keyword: filter.keyword?.trim() ?? '', ignoredOnly: filter.ignoredOnly ?? false },
    { queryKey: [...KEY, 'list'] },
  );
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
  const columns: ListColumn<FilingSettingRow>[] = [
    { key: 'qymc', title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
    { key: 'qysh', title: '税号', dataIndex: 'qysh', width: 190 },
    {
      key: 'ignoredTypes',
      title: '忽略的税种',
      dataIndex: 'ignoredTypes',
      width: 300,
      render: (ts: FilingTaxType[]) =>
        ts.length ? ts.map((t) => <Tag key={t}>{FILING_TAX_TYPE_NAMES[t]}</Tag>) : <span>无（全部办理）</span>,
    },
    { key: 'allocateUserName', title: '负责人', dataIndex: 'allocateUserName', width: 100 },
  ];
  return (
    <>
      <SearchBar<IgnoreSearch>
        theme="shrink"
        embedded
        form={form}
        fields={[
          { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
          {
            name: 'ignoredOnly',
            label: '忽略税种',
            node: (
              <Select
                allowClear
                placeholder="全部"
                options={[
                  { value: false, label: '全部企业' },
                  { value: true, label: '有忽略的税种' },
                ]}
              />
            ),
          },
        ]}
        buttons={
          can(['declare:setting:edit'])
            ? [
                {
                  key: 'ignore',
                  type: 'primary',
                  label: `设置忽略税种${selected.length ? `（${selected.length}）` : ''}`,
                  disabled: selected.length === 0,
                  onClick: () => {
                    setTypes([]);
                    setEditing(true);
                  },
                },
              ]
            : []
        }
        onSearch={(v) => setFilter(v)}
        onReset={() => setFilter({})}
        marker={
          <FilteredMarker
            values={filter}
            onClear={() => {
              form.resetFields();
              setFilter({});
            }}
          />
        }
      />
      <ListTable<FilingSettingRow>
        pageKey="filing-settings"
        nameKey="qymc"
        rowKey="aeiId"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        empty={filter.keyword || filter.ignoredOnly ? '没有符合条件的企业' : '暂无企业，请先在我的客户中添加企业'}
        rowSelection={
          can(['declare:setting:edit'])
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (k) => setSelected(k as number[]),
              }
            : undefined
        }
        selection={
          selected.length > 0 ? { count: selected.length, unit: '家企业', onClear: () => setSelected([]) } : undefined
        }
        pagination={list.pagination}
      />
      <Modal
        open={editing}
        title="设置忽略的税种"
        okText="保存"
        cancelText="取消"
        onOk={save}
        onCancel={() => setEditing(false)}
      >
        <p>勾选本机构不为所选企业办理的税种（不勾选：全部办理）：</p>
        <Checkbox.Group
          value={types}
          onChange={(v) => setTypes(v as FilingTaxType[])}
          options={FILING_TAX_TYPES.map((t) => ({ value: t, label: FILING_TAX_TYPE_NAMES[t] }))}
          style={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', gap: 8 }}
        />
      </Modal>
    </>
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

/** The threshold as typed: yuan with at most two decimals, from 0.01 to the maximum. */
function thresholdOk(v: unknown): boolean {
  const text = String(v ?? '').trim();
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(text)) return false;
  const fen = taxYuanToFen(text);
  return fen !== null && fen >= 1 && fen <= CONFIRM_THRESHOLD_MAX_FEN;
}

/**
 * 客户确认与申报计划 (issue 14): from which total tax a client is asked to confirm, whether filing waits
 * for it, how long the link lives, and the change from the previous period a plan row is flagged at.
 */
function ConfirmCard({ value }: { value: ConfirmSetting | undefined }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const isAdmin = useSessionInfo().isAdmin === '1';
  const [saving, setSaving] = useState(false);
  if (value === undefined) return null;
  return (
    <Card variant="borderless" title="客户确认与申报计划" style={{ marginTop: 16 }} data-testid="confirm-setting-card">
      <Form
        layout="vertical"
        requiredMark={false}
        key={JSON.stringify(value)}
        initialValues={value}
        disabled={!isAdmin}
        style={{ maxWidth: 720 }}
        onFinish={async (v: ConfirmSetting) => {
          setSaving(true);
          try {
            await call(saveConfirmSettingCall, { ...v, confirmThreshold: String(v.confirmThreshold).trim() });
            message.success(FILING_SETTING_MSG.saved);
            await qc.invalidateQueries({ queryKey: KEY });
          } finally {
            setSaving(false);
          }
        }}
      >
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', columnGap: 24 }}>
          <Form.Item
            label="客户确认金额（应补(退)税额合计达到此金额的客户可发送确认）"
            name="confirmThreshold"
            rules={[
              {
                validator: (_r, v) =>
                  thresholdOk(v) ? Promise.resolve() : Promise.reject(new Error(FILING_SETTING_MSG.confirmThreshold)),
              },
            ]}
          >
            <Input addonAfter="元" style={{ width: 220 }} inputMode="decimal" />
          </Form.Item>
          <Form.Item
            label="确认链接有效天数"
            name="confirmDays"
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: CONFIRM_DAYS_MAX,
                message: FILING_SETTING_MSG.confirmDays,
              },
            ]}
          >
            <InputNumber precision={0} addonAfter="天" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            label="申报计划变动提示比例（与上期相比）"
            name="diffPercent"
            rules={[
              {
                required: true,
                type: 'integer',
                min: 1,
                max: DIFF_PERCENT_MAX,
                message: FILING_SETTING_MSG.diffPercent,
              },
            ]}
          >
            <InputNumber precision={0} addonAfter="%" style={{ width: 160 }} />
          </Form.Item>
          <Form.Item
            label="申报前须客户确认"
            name="confirmRequired"
            valuePropName="checked"
            extra="开启后，达到确认金额但客户未确认的申报不会提交，显示「待客户确认」"
          >
            <Switch checkedChildren="是" unCheckedChildren="否" />
          </Form.Item>
        </div>
        {isAdmin ? (
          <Button htmlType="submit" type="primary" loading={saving}>
            保存
          </Button>
        ) : (
          <span style={{ color: '#999' }}>仅管理员可修改</span>
        )}
      </Form>
    </Card>
  );
}

interface XxbqSearch {
  keyword?: string;
  item?: XxbqItem;
}

function XxbqTab() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const has = useHasPerm();
  const can = has(['declare:setting:edit']);
  const canEditClient = has(['customer:edit']);
  const [editId, setEditId] = useState<number | null>(null);
  const [form] = Form.useForm<XxbqSearch>();
  const [filter, setFilter] = useState<XxbqSearch>({});
  const list = usePagedList(
    xxbqListCall,
    { keyword: filter.keyword?.trim() ?? '', ...(filter.item ? { item: filter.item } : {}) },
    { queryKey: [...KEY, 'xxbq'] },
  );
  const columns: ListColumn<FilingSettingRow>[] = [
    { key: 'qymc', title: '企业名称', dataIndex: 'qymc', width: 240, ellipsis: true },
    {
      key: 'lacks',
      title: '缺少的信息',
      dataIndex: 'lacks',
      width: 340,
      render: (ls: FilingSettingRow['lacks']) =>
        ls.map((l) => (
          <Tag color="orange" key={l}>
            {XXBQ_ITEM_NAMES[l]}
          </Tag>
        )),
    },
    {
      key: 'sfxy',
      title: '三方协议',
      dataIndex: 'sfxy',
      width: 100,
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
      key: 'op',
      title: '操作',
      width: 130,
      render: (_: unknown, r) =>
        canEditClient ? (
          <Button type="link" size="small" onClick={() => setEditId(r.aeiId)}>
            去补全
          </Button>
        ) : (
          <span style={{ color: '#999' }}>请联系管理员补全</span>
        ),
    },
  ];
  return (
    <>
      <SearchBar<XxbqSearch>
        theme="shrink"
        embedded
        form={form}
        fields={[
          { name: 'keyword', label: '企业', node: <Input allowClear placeholder="企业名称或税号" maxLength={50} /> },
          {
            name: 'item',
            label: '缺少',
            node: (
              <Select
                allowClear
                placeholder="任一项"
                options={XXBQ_ITEMS.map((i) => ({ value: i, label: XXBQ_ITEM_NAMES[i] }))}
              />
            ),
          },
        ]}
        onSearch={(v) => setFilter(v)}
        onReset={() => setFilter({})}
        marker={
          <FilteredMarker
            values={filter}
            onClear={() => {
              form.resetFields();
              setFilter({});
            }}
          />
        }
      />
      <ListTable<FilingSettingRow>
        pageKey="filing-xxbq"
        nameKey="qymc"
        actionKey="op"
        rowKey="aeiId"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.list ?? []}
        empty={filter.keyword || filter.item ? '没有符合条件的企业' : '企业的申报信息均已齐全'}
        pagination={list.pagination}
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
  const list = usePagedList(filingLogListCall, {}, { queryKey: [...KEY, 'logs'] });
  const columns: ListColumn<FilingLog>[] = [
    {
      key: 'createdAt',
      title: '时间',
      dataIndex: 'createdAt',
      width: 170,
      render: (v: string) => new Date(v).toLocaleString('zh-CN'),
    },
    { key: 'userName', title: '操作人', dataIndex: 'userName', width: 90 },
    { key: 'actionName', title: '操作', dataIndex: 'actionName', width: 110 },
    { key: 'detail', title: '内容', dataIndex: 'detail', width: 320 },
    { key: 'qymc', title: '企业', dataIndex: 'qymc', width: 220, ellipsis: true },
  ];
  return (
    <ListTable<FilingLog>
      pageKey="filing-setting-logs"
      nameKey="createdAt"
      rowKey="id"
      loading={list.isFetching}
      columns={columns}
      dataSource={list.data?.list ?? []}
      empty="暂无操作日志"
      pagination={list.pagination}
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
  const d = days.data;
  const confirm: ConfirmSetting | undefined = d
    ? {
        confirmThreshold: d.confirmThreshold,
        confirmRequired: d.confirmRequired,
        confirmDays: d.confirmDays,
        diffPercent: d.diffPercent,
      }
    : undefined;
  return (
    <>
      <Card variant="borderless" title="申报设置" extra={<RemindForm days={days.data?.remindDays} />}>
        <Tabs
          items={[
            { key: 'ignore', label: '税种设置', children: <IgnoreTab /> },
            { key: 'xxbq', label: '信息补全', children: <XxbqTab /> },
            { key: 'logs', label: '操作日志', children: <LogTab /> },
          ]}
        />
      </Card>
      <ConfirmCard value={confirm} />
    </>
  );
}
