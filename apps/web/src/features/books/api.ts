import { accountsCall, type BookAccount, bookClientsCall, bookInfoCall } from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../lib/request';

export { downloadFile, uploadFile } from '../customer/api';

/** The last book the user worked on (凭证, 账簿, 报表 and 结账 pages open it again). */
export const LAST_BOOK_KEY = 'dzy.books.lastBookId';

function readLastBook(): number | null {
  try {
    const v = Number(window.localStorage.getItem(LAST_BOOK_KEY));
    return Number.isInteger(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/** The chosen book, remembered across pages and visits. */
export function useChosenBook(): [number | null, (id: number | null) => void] {
  const [bookId, setBookId] = useState<number | null>(readLastBook);
  const choose = (id: number | null) => {
    setBookId(id);
    try {
      if (id) window.localStorage.setItem(LAST_BOOK_KEY, String(id));
      else window.localStorage.removeItem(LAST_BOOK_KEY);
    } catch {
      /* private mode: remembered for this page only */
    }
  };
  return [bookId, choose];
}

export function useBookInfo(bookId: number | null) {
  return useQuery({
    queryKey: [bookInfoCall.path, bookId],
    queryFn: () => call(bookInfoCall, { bookId: bookId ?? 0 }, { handle: [404] }),
    enabled: bookId !== null,
    retry: false,
  });
}

export function useChart(bookId: number | null) {
  return useQuery({
    queryKey: [accountsCall.path, bookId],
    queryFn: async () => (await call(accountsCall, { bookId: bookId ?? 0 }))?.list ?? ([] as BookAccount[]),
    enabled: bookId !== null,
  });
}

/** Booked clients matching a keyword (the book chooser's options). */
export function useBookedClients(keyword: string) {
  return useQuery({
    queryKey: [bookClientsCall.path, 'booked', keyword],
    queryFn: () => call(bookClientsCall, { state: 'booked', keyword, pageNum: 1, pageSize: 50 }),
  });
}

/** Accounts matching what was typed: code prefix, name or pinyin initials (库存现金 ← 1001, 库存, KCXJ, kc). */
export function matchAccounts(chart: readonly BookAccount[], typed: string, leafOnly = true, limit = 30) {
  const q = typed.trim().toUpperCase();
  const usable = chart.filter((a) => a.enabled && (!leafOnly || a.isLeaf));
  if (!q) return usable.slice(0, limit);
  const byCode = usable.filter((a) => a.code.startsWith(q));
  const rest = usable.filter(
    (a) =>
      !a.code.startsWith(q) &&
      (a.fullName.toUpperCase().includes(q) || a.py.includes(q) || pyOfFull(chart, a).includes(q)),
  );
  return [...byCode, ...rest].slice(0, limit);
}

function pyOfFull(chart: readonly BookAccount[], a: BookAccount): string {
  const parts: string[] = [];
  for (let x: BookAccount | undefined = a; x; x = chart.find((c) => c.id === x?.parentId)) parts.unshift(x.py);
  return parts.join('');
}
