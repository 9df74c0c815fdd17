import { deleteTemplateCall, fenToYuanText, templatesCall, type VoucherTemplate } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { type ListColumn, ListTable } from '../../../components/list-page/list-table';
import { toast } from '../../../lib/feedback';
import { usePagedList } from '../../../lib/paging';
import { call } from '../../../lib/request';

/**
 * 记账设置 › 常用凭证: the agency's voucher templates (made from the entry dialog's 存为常用凭证; used by its
 * 从常用凭证). Lines are kept by account code so one template serves every book.
 */
export function TemplatesTab() {
  const [keyword, setKeyword] = useState('');
  const list = usePagedList(templatesCall, { keyword }, { queryKey: [templatesCall.path] });
  const qc = useQueryClient();
  const { modal } = App.useApp();
  const can = useHasPerm();
  const columns: ListColumn<VoucherTemplate>[] = [
    { key: 'name', title: '名称', dataIndex: 'name', width: 200 },
    {
      key: 'lines',
      title: '分录',
      width: 520,
      render: (_, t) => (
        <div className="dzy-template-lines">
          {t.lines.map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a template's lines have no id; their order is their identity
            <div key={i}>
              <span className="side">{l.debit ? '借' : l.credit ? '贷' : '　'}</span> {l.code} · {l.summary}
              {l.debit || l.credit ? <span className="amt">{fenToYuanText(l.debit || l.credit)}</span> : null}
            </div>
          ))}
        </div>
      ),
    },
    {
      key: 'ops',
      title: '操作',
      width: 100,
      render: (_, t) =>
        can(['account:voucher:edit']) ? (
          <Button
            type="link"
            danger
            size="small"
            onClick={() =>
              modal.confirm({
                title: '删除常用凭证',
                content: `确定删除“${t.name}”吗？`,
                okText: '删除',
                okButtonProps: { danger: true },
                onOk: async () => {
                  await call(deleteTemplateCall, { id: t.id });
                  toast('success', '已删除');
                  await qc.invalidateQueries({ queryKey: [templatesCall.path] });
                },
              })
            }
          >
            删除
          </Button>
        ) : null,
    },
  ];
  return (
    <div>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search placeholder="常用凭证名称" allowClear onSearch={setKeyword} style={{ width: 260 }} />
      </Space>
      <ListTable
        pageKey="books-templates"
        rowKey="id"
        nameKey="name"
        actionKey="ops"
        columns={columns}
        dataSource={list.data?.list ?? []}
        loading={list.isLoading}
        pagination={list.pagination}
        empty="暂无常用凭证：在录入凭证时点“存为常用凭证”"
      />
    </div>
  );
}
