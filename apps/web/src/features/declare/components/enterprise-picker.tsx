import { CHECK_SELECT_MAX, type ChooserItem, chooserListCall } from '@dzy/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Input, Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { DECLARE_KEYS } from '../api';

const PAGE_SIZE = 50;

/**
 * 选择企业 for a check: the enterprises of the caller's data scope (searchable by name or tax number),
 * several at once across pages. `onOk` gets the chosen ones; 请选择企业 when none.
 */
export function EnterprisePicker({
  open,
  initial,
  onCancel,
  onOk,
  okLabel = '确定',
}: {
  open: boolean;
  initial: ChooserItem[];
  onCancel: () => void;
  onOk: (chosen: ChooserItem[]) => void;
  /** What confirming does, on the button before the count (default 确定). */
  okLabel?: string;
}) {
  const [q, setQ] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const [chosen, setChosen] = useState<ChooserItem[]>(initial);
  useEffect(() => {
    if (open) {
      setChosen(initial);
      setQ('');
      setPageNum(1);
    }
  }, [open, initial]);
  const list = useQuery({
    queryKey: DECLARE_KEYS.chooser(q, pageNum),
    queryFn: () => call(chooserListCall, { pageNum, pageSize: PAGE_SIZE, ...(q ? { qymc: q } : {}) }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const ok = () => {
    if (chosen.length === 0) {
      toast('warning', '请选择企业');
      return;
    }
    onOk(chosen);
  };
  return (
    <Modal
      open={open}
      title="选择企业"
      width={720}
      onCancel={onCancel}
      onOk={ok}
      okText={`${okLabel}${chosen.length > 0 ? `（已选 ${chosen.length} 家）` : ''}`}
      cancelText="取消"
      destroyOnHidden
    >
      <Input.Search
        allowClear
        enterButton="搜索"
        placeholder="企业名称或税号"
        maxLength={50}
        onSearch={(v) => {
          setQ(v.trim());
          setPageNum(1);
        }}
        style={{ marginBottom: 12 }}
      />
      <Table<ChooserItem>
        rowKey="id"
        size="small"
        dataSource={list.data?.list ?? []}
        loading={list.isFetching}
        scroll={{ y: 360 }}
        columns={[
          { title: '企业名称', dataIndex: 'qymc', ellipsis: true },
          {
            title: '企业税号',
            dataIndex: 'qysh',
            width: 220,
            render: (v: string) => v || <Typography.Text type="secondary">无税号</Typography.Text>,
          },
        ]}
        rowSelection={{
          selectedRowKeys: chosen.map((c) => c.id),
          preserveSelectedRowKeys: true,
          onChange: (_keys, rows) => {
            // Rows of other pages are kept by antd as undefined entries: keep the ones known before.
            const byId = new Map(chosen.map((c) => [c.id, c]));
            const next = _keys.flatMap((k) => {
              const row = rows.find((r) => r?.id === k) ?? byId.get(k as number);
              return row ? [row] : [];
            });
            if (next.length > CHECK_SELECT_MAX) toast('warning', `一次最多检查${CHECK_SELECT_MAX}家企业`);
            else setChosen(next);
          },
        }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (t) => `共 ${t} 家`,
          onChange: setPageNum,
        }}
      />
    </Modal>
  );
}
