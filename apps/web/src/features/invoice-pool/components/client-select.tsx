import { poolClientsCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { call } from '../../../lib/request';

/** One client of the caller's scope, searched by name or tax number (50 at a time). */
export function ClientSelect({
  value,
  onChange,
  placeholder = '选择企业',
  allowClear,
  width = 280,
  testId,
}: {
  value?: number | undefined;
  onChange: (id: number | undefined, name: string) => void;
  placeholder?: string;
  allowClear?: boolean;
  width?: number;
  testId?: string;
}) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({
    queryKey: ['invoice-pool', 'clients', keyword],
    queryFn: () => call(poolClientsCall, { keyword, pageNo: 1, pageSize: 50 }),
    staleTime: 30_000,
  });
  const options = (q.data?.list ?? []).map((c) => ({ value: c.id, label: c.qymc, title: c.qysh }));
  return (
    <Select
      data-testid={testId}
      showSearch
      filterOption={false}
      onSearch={(v) => setKeyword(v.trim())}
      allowClear={allowClear}
      placeholder={placeholder}
      value={value}
      style={{ width }}
      loading={q.isFetching}
      options={options}
      onChange={(v: number | undefined, opt) => {
        setKeyword('');
        onChange(v ?? undefined, Array.isArray(opt) ? '' : String(opt?.label ?? ''));
      }}
      notFoundContent={q.isFetching ? '加载中…' : '没有符合条件的企业'}
    />
  );
}
