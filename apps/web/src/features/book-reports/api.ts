import { fenToYuanText, type ReportBook, reportBooksCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/request';

export { downloadPost } from '../contract-fee/api';

/** The same key the 凭证 page remembers its book under: every 账务 page opens the last book again. */
const LAST_BOOK_KEY = 'dzy.books.lastBookId';

export function useRememberedBook(): [number | null, (id: number | null) => void] {
  const [bookId, setBookId] = useState<number | null>(() => {
    try {
      const v = Number(window.localStorage.getItem(LAST_BOOK_KEY));
      return Number.isInteger(v) && v > 0 ? v : null;
    } catch {
      return null;
    }
  });
  const choose = (id: number | null) => {
    setBookId(id);
    try {
      if (id) window.localStorage.setItem(LAST_BOOK_KEY, String(id));
      else window.localStorage.removeItem(LAST_BOOK_KEY);
    } catch {
      /* private mode */
    }
  };
  return [bookId, choose];
}

/** Books in scope matching a keyword (the chooser's options). */
export function useReportBooks(keyword: string) {
  return useQuery({
    queryKey: [reportBooksCall.path, keyword],
    queryFn: () => call(reportBooksCall, { keyword, pageNo: 1, pageSize: 50 }),
  });
}

/** Money in a report cell: blank for zero. */
export const cell = (fen: number) => (fen === 0 ? '' : fenToYuanText(fen));
/** Money always shown (statements). */
export const money = (fen: number) => fenToYuanText(fen);

export type { ReportBook };
