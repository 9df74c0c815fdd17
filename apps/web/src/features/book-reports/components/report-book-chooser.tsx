import type { ReportBook } from '@dzy/shared';
import { Select, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useReportBooks } from '../api';

/** 账套 chooser by client name or tax number; tells the page the chosen book's periods. */
export function ReportBookChooser({
  bookId,
  onChange,
  onBook,
}: {
  bookId: number | null;
  onChange: (bookId: number | null) => void;
  onBook: (book: ReportBook | null) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const books = useReportBooks(keyword);
  const [known, setKnown] = useState<Map<number, ReportBook>>(new Map());
  const list = books.data?.list ?? [];
  useEffect(() => {
    if (list.length === 0) return;
    setKnown((m) => {
      const next = new Map(m);
      for (const b of list) next.set(b.bookId, b);
      return next;
    });
  }, [list]);
  const chosen = bookId ? (known.get(bookId) ?? null) : null;
  useEffect(() => {
    onBook(chosen);
  }, [chosen, onBook]);
  // A remembered book the user can no longer see: choose the first one instead.
  useEffect(() => {
    if (!books.isFetching && keyword === '' && list.length > 0 && (!bookId || !known.has(bookId)))
      onChange(list[0]?.bookId ?? null);
  }, [books.isFetching, keyword, list, bookId, known, onChange]);
  const options = list.map((b) => ({ value: b.bookId, label: b.qymc, period: b.currentPeriod }));
  if (chosen && !options.some((o) => o.value === chosen.bookId))
    options.unshift({ value: chosen.bookId, label: chosen.qymc, period: chosen.currentPeriod });
  return (
    <Select
      data-testid="report-book-chooser"
      showSearch
      filterOption={false}
      onSearch={setKeyword}
      placeholder="选择账套（企业名称或税号）"
      style={{ width: 320 }}
      value={chosen ? chosen.bookId : undefined}
      onChange={(v) => onChange(v ?? null)}
      loading={books.isFetching}
      options={options}
      notFoundContent={books.isFetching ? '加载中…' : '没有已建账的企业，请先在账套管理中建账'}
      optionRender={(o) => (
        <span className="dzy-report-book-option">
          <span>{o.data.label}</span>
          <Tag bordered={false}>当前期间 {o.data.period}</Tag>
        </span>
      )}
    />
  );
}
