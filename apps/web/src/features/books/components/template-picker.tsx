import { FileTextOutlined } from '@ant-design/icons';
import { applyTemplateCall, templatesCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Dropdown } from 'antd';
import { call } from '../../../lib/request';

type DraftLine = { summary: string; accountId: number; debit: number; credit: number };

/** 从常用凭证: the agency's templates; picking one fills the grid with its lines (accounts by code). */
export function TemplatePicker({ bookId, onApply }: { bookId: number; onApply: (lines: DraftLine[]) => void }) {
  const list = useQuery({
    queryKey: [templatesCall.path, 'picker'],
    queryFn: () => call(templatesCall, { keyword: '', pageNum: 1, pageSize: 100 }),
  });
  const items = (list.data?.list ?? []).map((t) => ({ key: String(t.id), label: t.name }));
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: items.length ? items : [{ key: 'none', label: '暂无常用凭证', disabled: true }],
        onClick: async ({ key }) => {
          if (key === 'none') return;
          try {
            const r = await call(applyTemplateCall, { id: Number(key), bookId });
            if (r) onApply(r.lines);
          } catch {
            /* told */
          }
        },
      }}
    >
      <Button icon={<FileTextOutlined />}>从常用凭证</Button>
    </Dropdown>
  );
}
