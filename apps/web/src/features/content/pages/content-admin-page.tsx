import { ArrowDownOutlined, ArrowUpOutlined, ExclamationCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CONTENT_CATEGORIES,
  CONTENT_KINDS,
  type ContentAdminItem,
  type ContentCategory,
  type ContentKind,
  contentAdminListCall,
  contentDeleteCall,
  contentSaveCall,
  saveOrderCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { SearchBar, type SearchButton, type SearchField } from '../../../components/search-bar';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { CONTENT_KEYS, dayOf, durationText, itemMeta, kindColor } from '../api';
import { ContentFormDialog } from '../components/content-form-dialog';
import { ContentViewer } from '../components/content-viewer';
import '../content.css';

interface SearchValues {
  kind?: ContentKind;
  category?: ContentCategory;
  keyword?: string;
}

const saveBody = (r: ContentAdminItem, published: boolean) => ({
  id: r.id,
  kind: r.kind,
  category: r.category as ContentCategory,
  title: r.title,
  summary: r.summary,
  body: r.body,
  source: r.source,
  videoFile: r.videoFile,
  videoUrl: r.videoUrl,
  coverFile: r.coverFile,
  durationSec: r.durationSec,
  published,
});

/** 课堂内容 (/platform/content): the operator creates, edits, publishes, orders and deletes classroom items. */
export function ContentAdminPage() {
  useDocumentTitle('课堂内容');
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SearchValues>();
  const [values, setValues] = useState<SearchValues>({});
  const [editing, setEditing] = useState<ContentAdminItem | null | 'new'>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const filter = {
    ...(values.kind ? { kind: values.kind } : {}),
    ...(values.category ? { category: values.category } : {}),
    ...(values.keyword ? { keyword: values.keyword } : {}),
  };
  const list = usePagedList(contentAdminListCall, filter, { queryKey: [...CONTENT_KEYS.all, 'admin'] });
  const rows = list.data?.list ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: CONTENT_KEYS.all });

  const move = async (index: number, by: -1 | 1) => {
    const ids = rows.map((r) => r.id);
    const a = ids[index];
    const b = ids[index + by];
    if (a === undefined || b === undefined) return;
    ids[index] = b;
    ids[index + by] = a;
    setBusy(true);
    try {
      await call(saveOrderCall, { ids });
      toast('success', '排序已保存');
      await refresh();
    } catch {
      // told by the request client
    } finally {
      setBusy(false);
    }
  };
  const togglePublish = (r: ContentAdminItem) =>
    modal.confirm({
      title: r.published ? '下架内容' : '发布内容',
      content: r.published
        ? `下架“${r.title}”后，各代理机构将看不到它。`
        : `发布“${r.title}”后，所有代理机构的用户都能在财税课堂看到它。`,
      okText: r.published ? '下架' : '发布',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      onOk: async () => {
        try {
          await call(contentSaveCall, saveBody(r, !r.published));
          toast('success', r.published ? '已下架' : '已发布');
          await refresh();
        } catch {
          // told by the request client
        }
      },
    });
  const remove = (r: ContentAdminItem) =>
    modal.confirm({
      title: '删除内容',
      content: `确定删除“${r.title}”吗？删除后不可恢复，上传的视频和封面也将一并删除。`,
      okText: '删除',
      cancelText: '取消',
      icon: <ExclamationCircleOutlined />,
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await call(contentDeleteCall, { id: r.id });
          toast('success', '删除成功');
          await refresh();
        } catch {
          // told by the request client
        }
      },
    });

  const fields: SearchField[] = [
    {
      name: 'kind',
      label: '内容类型',
      node: (
        <Select
          allowClear
          placeholder="全部"
          options={CONTENT_KINDS.map((k) => ({ value: k.value, label: k.label }))}
        />
      ),
    },
    {
      name: 'category',
      label: '学科分类',
      node: <Select allowClear placeholder="全部" options={CONTENT_CATEGORIES.map((c) => ({ value: c, label: c }))} />,
    },
    { name: 'keyword', label: '标题', node: <Input allowClear placeholder="标题或简介" maxLength={50} /> },
  ];
  const buttons: SearchButton[] = [
    { key: 'add', label: '新增内容', type: 'primary', icon: <PlusOutlined />, onClick: () => setEditing('new') },
  ];
  const filtered = Object.keys(filter).length > 0;

  const columns: ListColumn<ContentAdminItem>[] = [
    {
      title: '顺序',
      key: 'order',
      width: 76,
      render: (_v: unknown, _r: ContentAdminItem, i: number) => (
        <Space size={0}>
          <Tooltip title={filtered ? '清除筛选后可调整顺序' : '上移'}>
            <Button
              type="text"
              size="small"
              aria-label="上移"
              icon={<ArrowUpOutlined />}
              disabled={busy || filtered || i === 0}
              onClick={() => void move(i, -1)}
            />
          </Tooltip>
          <Tooltip title={filtered ? '清除筛选后可调整顺序' : '下移'}>
            <Button
              type="text"
              size="small"
              aria-label="下移"
              icon={<ArrowDownOutlined />}
              disabled={busy || filtered || i === rows.length - 1}
              onClick={() => void move(i, 1)}
            />
          </Tooltip>
        </Space>
      ),
    },
    {
      title: '标题',
      key: 'title',
      width: 280,
      render: (_v: unknown, r: ContentAdminItem) => (
        <div style={{ minWidth: 0 }}>
          <Button type="link" size="small" className="dzy-list-name-link" onClick={() => setViewing(r.id)}>
            {r.title}
          </Button>
          <Typography.Text
            type="secondary"
            ellipsis={{ tooltip: r.summary }}
            style={{ display: 'block', fontSize: 12 }}
          >
            {r.summary || '—'}
          </Typography.Text>
        </div>
      ),
    },
    {
      title: '类型 / 分类',
      key: 'kind',
      width: 140,
      render: (_v: unknown, r: ContentAdminItem) => <Tag color={kindColor[r.kind]}>{itemMeta(r)}</Tag>,
    },
    {
      title: '来源',
      key: 'source',
      width: 120,
      render: (_v: unknown, r: ContentAdminItem) =>
        r.source === 'upload' ? '上传视频' : r.source === 'link' ? '外部链接' : '图文',
    },
    {
      title: '时长',
      key: 'duration',
      width: 70,
      render: (_v: unknown, r: ContentAdminItem) => durationText(r.durationSec) || '—',
    },
    {
      title: '状态',
      key: 'published',
      width: 80,
      render: (_v: unknown, r: ContentAdminItem) => (r.published ? <Tag color="green">已发布</Tag> : <Tag>未发布</Tag>),
    },
    {
      title: '观看',
      key: 'watchCount',
      width: 70,
      align: 'right' as const,
      render: (_v: unknown, r: ContentAdminItem) => r.watchCount,
    },
    {
      title: '发布日期',
      key: 'publishedAt',
      width: 100,
      render: (_v: unknown, r: ContentAdminItem) => dayOf(r.publishedAt) || '—',
    },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      render: (_v: unknown, r: ContentAdminItem) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(r)}>
            编辑
          </Button>
          <Button type="link" size="small" onClick={() => togglePublish(r)}>
            {r.published ? '下架' : '发布'}
          </Button>
          <Button type="link" size="small" danger onClick={() => remove(r)}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div className="dzy-content-admin">
      <SearchBar<SearchValues>
        theme="shrink"
        form={form}
        fields={fields}
        buttons={buttons}
        onSearch={(v) => {
          setValues(v);
          if (JSON.stringify(v) === JSON.stringify(values)) void list.refetch();
        }}
      />
      <ListTable<ContentAdminItem>
        card
        pageKey="platform-content"
        nameKey="title"
        actionKey="ops"
        rowKey="id"
        loading={list.isFetching && !list.isLoading ? { delay: 300 } : list.isLoading}
        columns={columns}
        dataSource={rows}
        empty="暂无课堂内容，点击“新增内容”发布第一条"
        pagination={{ ...list.pagination, showQuickJumper: true }}
      />
      <ContentFormDialog
        open={editing !== null}
        item={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onDone={() => {
          setEditing(null);
          void refresh();
        }}
      />
      <ContentViewer id={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
