import {
  BOOK_VAT_NAMES,
  type BookClient,
  type BookInfo,
  bookClientsCall,
  QYXZ_NAMES,
  STANDARD_NAMES,
  setUpCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Drawer, Form, Input, Modal, Radio, Select, Space, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { useDocumentTitle } from '../../../lib/document-title';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';
import { LinkedAgencyGuard } from '../../org/components/linked-agency-guard';
import { useBookInfo, useChosenBook } from '../api';
import { AuxTab } from '../components/aux-tab';
import { ChartTab } from '../components/chart-tab';
import { OpeningsTab } from '../components/openings-tab';
import '../books.css';

/** 账套管理 (/account/books): the clients in scope and their books; 新建账套; a book's 科目, 辅助核算, 期初余额. */
export function BooksPage() {
  useDocumentTitle('账套管理');
  return (
    <LinkedAgencyGuard>
      <Books />
    </LinkedAgencyGuard>
  );
}

function Books() {
  const can = useHasPerm();
  const [keyword, setKeyword] = useState('');
  const [state, setState] = useState<'all' | 'booked' | 'unbooked'>('all');
  const [creating, setCreating] = useState<BookClient | null>(null);
  const [openBook, setOpenBook] = useState<number | null>(null);
  const [, remember] = useChosenBook();
  const list = usePagedList(bookClientsCall, { keyword, state }, { queryKey: [bookClientsCall.path] });

  const columns: ListColumn<BookClient>[] = [
    {
      key: 'qymc',
      title: '企业名称',
      width: 260,
      render: (_, c) => (
        <div>
          <div>{c.qymc}</div>
          <Typography.Text type="secondary" className="dzy-small">
            {c.qysh || '无税号'}
          </Typography.Text>
        </div>
      ),
    },
    { key: 'qyxz', title: '纳税人类型', width: 100, render: (_, c) => QYXZ_NAMES[c.qyxz] ?? '' },
    { key: 'user', title: '负责人', dataIndex: 'allocateUserName', width: 100, ellipsis: true },
    {
      key: 'book',
      title: '建账状态',
      width: 110,
      render: (_, c) => (c.bookId ? <Tag color="blue">已建账</Tag> : <Tag>未建账</Tag>),
    },
    {
      key: 'standard',
      title: '会计准则',
      width: 170,
      render: (_, c) => (c.standard ? STANDARD_NAMES[c.standard as keyof typeof STANDARD_NAMES] : '—'),
    },
    { key: 'start', title: '启用期间', width: 100, render: (_, c) => c.startPeriod || '—' },
    { key: 'current', title: '当前期间', width: 100, render: (_, c) => c.currentPeriod || '—' },
    {
      key: 'opening',
      title: '期初试算',
      width: 100,
      render: (_, c) =>
        c.bookId ? c.openingBalanced ? <Tag color="green">平衡</Tag> : <Tag color="orange">未平衡</Tag> : '—',
    },
    {
      key: 'ops',
      title: '操作',
      width: 150,
      render: (_, c) =>
        c.bookId ? (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              onClick={() => {
                setOpenBook(c.bookId);
                remember(c.bookId);
              }}
              data-testid={`open-book-${c.aeiId}`}
            >
              科目与期初
            </Button>
          </Space>
        ) : can(['account:book:setup']) ? (
          <Button type="link" size="small" onClick={() => setCreating(c)} data-testid={`setup-${c.aeiId}`}>
            新建账套
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="dzy-books-page">
      <div className="dzy-books-bar">
        <Space wrap>
          <Input.Search
            placeholder="企业名称或税号"
            allowClear
            onSearch={setKeyword}
            style={{ width: 260 }}
            data-testid="books-search"
          />
          <Radio.Group
            value={state}
            onChange={(e) => setState(e.target.value)}
            optionType="button"
            options={[
              { value: 'all', label: '全部' },
              { value: 'booked', label: '已建账' },
              { value: 'unbooked', label: '未建账' },
            ]}
          />
        </Space>
      </div>
      <ListTable
        card
        pageKey="books-clients"
        rowKey="aeiId"
        nameKey="qymc"
        actionKey="ops"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isLoading}
        pagination={list.pagination}
        empty="没有符合条件的企业"
      />
      {creating ? (
        <SetUpDialog
          client={creating}
          onClose={() => setCreating(null)}
          onMade={(b) => {
            setCreating(null);
            setOpenBook(b.bookId);
            remember(b.bookId);
          }}
        />
      ) : null}
      <BookDrawer bookId={openBook} onClose={() => setOpenBook(null)} />
    </div>
  );
}

function SetUpDialog({
  client,
  onClose,
  onMade,
}: {
  client: BookClient;
  onClose: () => void;
  onMade: (b: BookInfo) => void;
}) {
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const b = await call(setUpCall, {
        aeiId: client.aeiId,
        standard: v.standard,
        startPeriod: (v.startPeriod as dayjs.Dayjs).format('YYYY-MM'),
        vatKind: v.vatKind,
      });
      if (!b) return;
      toast('success', `已为${client.qymc}建账`);
      await qc.invalidateQueries({ queryKey: [bookClientsCall.path] });
      onMade(b);
    } catch {
      /* told */
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal open title="新建账套" okText="建账" onOk={submit} confirmLoading={saving} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>
        企业：<strong>{client.qymc}</strong>
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          standard: 'small2013',
          startPeriod: dayjs().startOf('year'),
          vatKind: client.qyxz === '0' ? 'general' : 'small',
        }}
      >
        <Form.Item name="standard" label="会计准则" rules={[{ required: true }]}>
          <Select
            options={Object.entries(STANDARD_NAMES).map(([value, label]) => ({ value, label }))}
            data-testid="setup-standard"
          />
        </Form.Item>
        <Form.Item
          name="startPeriod"
          label="启用期间"
          rules={[{ required: true, message: '请选择启用期间' }]}
          extra="期初余额为启用期间月初的余额；年中启用需录入本年累计发生额"
        >
          <DatePicker picker="month" style={{ width: '100%' }} allowClear={false} data-testid="setup-period" />
        </Form.Item>
        <Form.Item name="vatKind" label="增值税纳税人类型" rules={[{ required: true }]}>
          <Radio.Group options={Object.entries(BOOK_VAT_NAMES).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function BookDrawer({ bookId, onClose }: { bookId: number | null; onClose: () => void }) {
  const info = useBookInfo(bookId);
  const b = info.data;
  const can = useHasPerm();
  const editable = can(['account:book:edit']);
  return (
    <Drawer
      open={bookId !== null}
      onClose={onClose}
      width="min(1180px, 96vw)"
      title={
        b ? (
          <Space wrap>
            <span>{b.qymc}</span>
            <Tag>{STANDARD_NAMES[b.standard]}</Tag>
            <Tag>{BOOK_VAT_NAMES[b.vatKind]}</Tag>
            <Typography.Text type="secondary">
              启用 {b.startPeriod} · 当前 {b.currentPeriod} · {b.voucherNum} 张凭证
            </Typography.Text>
          </Space>
        ) : (
          '账套'
        )
      }
      destroyOnHidden
    >
      {b ? (
        <Tabs
          items={[
            { key: 'chart', label: '科目', children: <ChartTab bookId={b.bookId} editable={editable} /> },
            { key: 'aux', label: '辅助核算', children: <AuxTab bookId={b.bookId} editable={editable} /> },
            { key: 'openings', label: '期初余额', children: <OpeningsTab book={b} editable={editable} /> },
          ]}
        />
      ) : null}
    </Drawer>
  );
}
