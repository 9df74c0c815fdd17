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
import { Card, Form, Input, InputNumber, Select, Switch, Tabs, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import {
  AdminFormModal,
  AdminTable,
  AdminToolbar,
  actionsColumn,
  useAdminList,
  useConfirmDelete,
  useEditing,
} from '../../components/admin-list/admin-list';
import { useDocumentTitle } from '../../lib/document-title';
import { toast } from '../../lib/feedback';
import { codeInput, lowerCodeInput } from '../../lib/form-rules';
import { call } from '../../lib/request';
import { HolidayTab } from './holiday-tab';

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
          { key: 'holiday', label: '节假日安排', children: <HolidayTab /> },
        ]}
      />
    </Card>
  );
}

function DictTab() {
  const [dictType, setDictType] = useState<string | undefined>();
  const [label, setLabel] = useState('');
  const editing = useEditing<Row>();
  const { list, refresh } = useAdminList(
    listDictAdminCall,
    { ...(dictType ? { dictType } : {}), ...(label ? { label } : {}) },
    DICT_KEY,
  );
  const types = list.data?.types ?? [];
  const confirmDelete = useConfirmDelete();

  const toggle = async (r: Row, enabled: boolean) => {
    try {
      await call(saveDictCall, {
        id: r.id,
        dictType: r.dictType,
        typeName: r.typeName,
        dictCode: r.code,
        label: r.label,
        sort: r.sort,
        enabled,
      });
      toast('success', '保存成功');
      refresh();
    } catch {
      // Told by the request client.
    }
  };
  const remove = (r: Row) =>
    confirmDelete({
      title: '删除字典值',
      content: `确定删除「${r.typeName}」中的「${r.label}」吗？删除后各页面不再提供该选项。`,
      run: () => call(deleteDictCall, { id: r.id }),
      done: refresh,
    });

  return (
    <>
      <AdminToolbar
        filters={
          <Select
            allowClear
            style={{ width: 220 }}
            placeholder="全部字典类型"
            value={dictType}
            onChange={setDictType}
            options={types.map((t) => ({ value: t.dictType, label: `${t.name}（${t.dictType}）` }))}
          />
        }
        search={{ placeholder: '按名称搜索', width: 220, onSearch: setLabel }}
        onRefresh={refresh}
        addLabel="新增字典值"
        onAdd={editing.add}
      />
      <AdminTable<Row>
        rowKey="id"
        loading={list.isFetching}
        rows={list.data?.list}
        pagination={list.pagination}
        scrollX={860}
        emptyText="暂无字典值"
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
              <Switch size="small" checked={v} onChange={(on) => void toggle(r, on)} aria-label="启用" />
            ),
          },
          actionsColumn((r) => [
            { label: '编辑', onClick: () => editing.edit(r) },
            { label: '删除', danger: true, onClick: () => remove(r) },
          ]),
        ]}
      />
      <DictForm
        row={editing.row}
        open={editing.open}
        typeOptions={types}
        defaultType={dictType}
        onClose={editing.close}
        onSaved={() => {
          editing.close();
          refresh();
        }}
      />
    </>
  );
}

function DictForm({
  row,
  open,
  typeOptions,
  defaultType,
  onClose,
  onSaved,
}: {
  row: Row | null;
  open: boolean;
  typeOptions: { dictType: string; name: string }[];
  defaultType: string | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
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
    <AdminFormModal<DictValues>
      title={row ? '编辑字典值' : '新增字典值'}
      open={open}
      name="dictForm"
      initialValues={initial}
      save={(v) =>
        call(saveDictCall, {
          ...v,
          dictType: v.dictType.trim(),
          dictCode: v.dictCode.trim(),
          ...(row ? { id: row.id } : {}),
        })
      }
      onSaved={onSaved}
      onCancel={onClose}
    >
      <Form.Item
        label="字典类型"
        name="dictType"
        normalize={lowerCodeInput}
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
        normalize={codeInput}
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
    </AdminFormModal>
  );
}

function AqUrlTab() {
  const editing = useEditing<AqUrlItem>();
  const list = useQuery({ queryKey: AQ_KEY, queryFn: () => call(listAqUrlCall, {}) });
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: AQ_KEY });
  const confirmDelete = useConfirmDelete();
  const row = editing.row;

  const remove = (r: AqUrlItem) =>
    confirmDelete({
      title: '删除 AI 咨询地址',
      content: `确定删除「${r.regionName}」的地址吗？该地区的机构将改用上级地区或全国默认地址，都没有时显示未配置。`,
      run: () => call(deleteAqUrlCall, { regionCode: r.regionCode }),
      done: refresh,
    });

  return (
    <>
      <AdminToolbar
        filters={
          <span className="dzy-muted-text">
            机构打开 AI 咨询时，依次使用其所在区县、地市、省份的地址，都没有时使用全国默认地址。
          </span>
        }
        addLabel="设置地址"
        onAdd={editing.add}
      />
      <AdminTable<AqUrlItem>
        rowKey="regionCode"
        loading={list.isFetching}
        rows={list.data}
        pagination={false}
        emptyText="尚未配置任何地区的 AI 咨询地址，各机构打开时将提示未配置"
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
          actionsColumn(
            (r) => [
              { label: '编辑', onClick: () => editing.edit(r) },
              { label: '删除', danger: true, onClick: () => remove(r) },
            ],
            { fixed: false },
          ),
        ]}
      />
      <AdminFormModal<{ regionCode: string; url: string }>
        title={row ? '编辑 AI 咨询地址' : '设置 AI 咨询地址'}
        open={editing.open}
        name="aqUrlForm"
        initialValues={row ? { regionCode: row.regionCode, url: row.url } : { regionCode: '', url: '' }}
        save={(v) => call(saveAqUrlCall, { regionCode: v.regionCode.trim(), url: v.url.trim() })}
        onSaved={() => {
          refresh();
          editing.close();
        }}
        onCancel={editing.close}
      >
        <Form.Item
          label="地区编码"
          name="regionCode"
          normalize={codeInput}
          extra="省、市或区县的6位编码，如 330000 浙江省、330100 杭州市；留空为全国默认"
          rules={[{ pattern: /^(\d{6})?$/, message: '地区编码须为6位数字（留空表示全国默认）' }]}
        >
          <Input maxLength={6} inputMode="numeric" disabled={row !== null} placeholder="留空为全国默认" />
        </Form.Item>
        <Form.Item
          label="地址"
          name="url"
          normalize={codeInput}
          rules={[
            { required: true, message: '请输入以 https:// 或 http:// 开头的地址' },
            { pattern: /^https?:\/\/\S+$/i, message: '请输入以 https:// 或 http:// 开头的地址' },
          ]}
        >
          <Input placeholder="https://" maxLength={500} />
        </Form.Item>
      </AdminFormModal>
    </>
  );
}
