import { Select, Tag } from 'antd';
import { useState } from 'react';
import { useBookedClients, useBookInfo } from '../api';

/**
 * 账套 chooser = client chooser (search by name or tax number among the clients with a book in the user's
 * scope). Controlled by the page; pages remember the choice with useChosenBook.
 */
export function BookChooser({
  bookId,
  onChange,
  width = 320,
}: {
  bookId: number | null;
  onChange: (bookId: number | null) => void;
  width?: number;
}) {
  const [keyword, setKeyword] = useState('');
  const clients = useBookedClients(keyword);
  const info = useBookInfo(bookId);
  const options = (clients.data?.list ?? []).flatMap((c) =>
    c.bookId ? [{ value: c.bookId, label: c.qymc, qysh: c.qysh, period: c.currentPeriod }] : [],
  );
  // The chosen book stays shown even when the search does not list it.
  if (bookId && info.data && !options.some((o) => o.value === bookId))
    options.unshift({ value: bookId, label: info.data.qymc, qysh: info.data.qysh, period: info.data.currentPeriod });
  return (
    <Select
      data-testid="book-chooser"
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      placeholder="选择账套（企业名称或税号）"
      style={{ width }}
      value={bookId ?? undefined}
      onChange={(v) => onChange(v ?? null)}
      loading={clients.isFetching}
      options={options}
      notFoundContent={clients.isFetching ? '加载中…' : '没有已建账的企业，请先在账套管理中建账'}
      optionRender={(o) => (
        <div className="dzy-book-option">
          <span>{o.data.label}</span>
          <Tag bordered={false}>{o.data.period}</Tag>
        </div>
      )}
    />
  );
}
