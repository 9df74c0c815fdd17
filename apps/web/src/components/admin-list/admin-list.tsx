import { ExclamationCircleOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import type { CallDef } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Form,
  type FormInstance,
  Input,
  Modal,
  Space,
  Table,
  type TableColumnType,
  type TablePaginationConfig,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { toast } from '../../lib/feedback';
import { type ListFilter, usePagedList } from '../../lib/paging';

/**
 * The operator's admin lists (服务商品牌, 机构权益, 字典与客服) share one shape: a toolbar (search, filters,
 * refresh, add), a table with 编辑/删除 links, a confirm before deleting and a dialog form that saves.
 * Errors of a call are told by the request client, so the pieces here only swallow them.
 */

/** A paged list of a call with the key to refetch it by (after a save, a delete or 刷新). */
export function useAdminList<C extends CallDef>(def: C, filter: ListFilter<C>, key: unknown[]) {
  const queryClient = useQueryClient();
  const list = usePagedList(def, filter, { queryKey: key });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  return { list, refresh };
}

/** Which row the dialog edits: a row, 'new', or closed (null). */
export function useEditing<T>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  return {
    editing,
    row: editing !== null && editing !== 'new' ? (editing as T) : null,
    open: editing !== null,
    edit: (r: T) => setEditing(() => r),
    add: () => setEditing('new'),
    close: () => setEditing(null),
  };
}

export function AdminToolbar(props: {
  search?: { placeholder: string; width?: number; onSearch: (v: string) => void };
  /** Filters before the search box (a Select…), or a note in place of both. */
  filters?: ReactNode;
  onRefresh?: () => void;
  addLabel?: string;
  onAdd?: () => void;
}) {
  const { search } = props;
  return (
    <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
      <Space wrap>
        {props.filters}
        {search ? (
          <Input.Search
            allowClear
            style={{ width: search.width ?? 260 }}
            placeholder={search.placeholder}
            onSearch={(v) => search.onSearch(v.trim())}
          />
        ) : null}
      </Space>
      <Space>
        {props.onRefresh ? <Button icon={<ReloadOutlined />} onClick={props.onRefresh} aria-label="刷新" /> : null}
        {props.onAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={props.onAdd}>
            {props.addLabel}
          </Button>
        ) : null}
      </Space>
    </Space>
  );
}

export function AdminTable<T extends object>(props: {
  rowKey: keyof T & string;
  rows: T[] | null | undefined;
  loading: boolean;
  /** The paged list's pagination; false for a short list shown whole. */
  pagination: TablePaginationConfig | false;
  columns: TableColumnType<T>[];
  emptyText: string;
  scrollX?: number;
  size?: 'middle' | 'small';
}) {
  return (
    <Table<T>
      rowKey={props.rowKey}
      size={props.size ?? 'middle'}
      loading={props.loading}
      dataSource={props.rows ?? []}
      pagination={props.pagination}
      {...(props.scrollX ? { scroll: { x: props.scrollX } } : {})}
      locale={{ emptyText: props.emptyText }}
      columns={props.columns}
    />
  );
}

export interface RowAction {
  label: string;
  onClick: () => void;
  danger?: boolean;
}

/** The 操作 column: link buttons, fixed to the right when the table scrolls. */
export function actionsColumn<T>(
  actions: (r: T) => RowAction[],
  opts: { width?: number; fixed?: boolean } = {},
): TableColumnType<T> {
  return {
    title: '操作',
    key: 'actions',
    width: opts.width ?? 130,
    ...(opts.fixed === false ? {} : { fixed: 'right' as const }),
    render: (_v, r) => (
      <Space size={0}>
        {actions(r).map((a) => (
          <Button key={a.label} type="link" size="small" danger={a.danger} onClick={a.onClick}>
            {a.label}
          </Button>
        ))}
      </Space>
    ),
  };
}

/** 删除 after a confirm: runs the call, says so, then `done` (a refresh). */
export function useConfirmDelete() {
  const { modal } = App.useApp();
  return (o: { title: string; content: ReactNode; run: () => Promise<unknown>; done: () => void }) =>
    modal.confirm({
      title: o.title,
      content: o.content,
      okText: '删除',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await o.run();
          toast('success', '删除成功');
          o.done();
        } catch {
          // Told by the request client.
        }
      },
    });
}

/**
 * An edit dialog with its form: 保存 submits; `save` sends the call; on success the dialog says
 * `savedText` and calls `onSaved` (close and refresh); on failure it stays open with what was typed.
 */
export function AdminFormModal<V extends object>(props: {
  title: ReactNode;
  open: boolean;
  name: string;
  initialValues: Partial<V>;
  save: (v: V) => Promise<unknown>;
  onSaved: () => void;
  onCancel: () => void;
  children: ReactNode;
  width?: number;
  labelWidth?: number;
  savedText?: string;
  /** The form instance, when the page needs it (a watched field, a value set from an upload). */
  form?: FormInstance<V>;
}) {
  const [own] = Form.useForm<V>();
  const form = props.form ?? own;
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      title={props.title}
      open={props.open}
      width={props.width ?? 520}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form<V>
        form={form}
        name={props.name}
        layout="horizontal"
        labelCol={{ flex: `${props.labelWidth ?? 84}px` }}
        wrapperCol={{ flex: 1 }}
        colon={false}
        initialValues={props.initialValues}
        preserve={false}
        // The page's form instance outlives the dialog: without this, the next row's dialog would open with
        // the last one's values (its store wins over the new initialValues).
        clearOnDestroy
        onFinish={async (v) => {
          setSaving(true);
          try {
            await props.save(v);
            toast('success', props.savedText ?? '保存成功');
            props.onSaved();
          } catch {
            // Told by the request client.
          } finally {
            setSaving(false);
          }
        }}
      >
        {props.children}
      </Form>
    </Modal>
  );
}
