import type { CallBody, CallData, CallDef, PageCursors } from '@dzy/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TablePaginationConfig } from 'antd';
import { useEffect, useState } from 'react';
import { formatCount } from './format';
import { call } from './request';

/** A list's paging as the page asks for it: the spec's page number and size, and a cursor when it has one. */
export interface Paged {
  pageNo: number;
  pageSize: number;
  cursor?: string;
}

/**
 * The paging after the user picks page `to` (antd's onChange): a step of one page carries the cursor
 * the shown reply gave, so the server walks its index from there (apps/server/src/db/paging.ts);
 * any other jump, or a new page size, goes by page number alone.
 */
export function movePage(cur: Paged, to: number, pageSize: number, reply?: { cursor?: PageCursors } | null): Paged {
  if (pageSize !== cur.pageSize) return { pageNo: 1, pageSize };
  const step = to - cur.pageNo;
  const cursor = step === 1 ? reply?.cursor?.next : step === -1 ? reply?.cursor?.prev : undefined;
  return cursor ? { pageNo: to, pageSize, cursor } : { pageNo: to, pageSize };
}

type PagingKey = 'pageNo' | 'pageNum' | 'pageSize' | 'cursor';
/** The body of a list call without its paging: what the page filters and sorts by. */
export type ListFilter<C extends CallDef> = Omit<CallBody<C>, PagingKey>;

export interface PagedListOptions {
  /** The first page size (default 20); the user may change it with the size changer. */
  pageSize?: number;
  enabled?: boolean;
  /** The query's key without the body (default: the call's path); invalidate it to refetch the list. */
  queryKey?: unknown[];
}

/** The spec names the page number pageNo in most calls and pageNum in some: use the one the body has. */
function pageNoField(def: CallDef): 'pageNo' | 'pageNum' {
  const shape = (def.body as { shape?: Record<string, unknown> }).shape;
  return shape && 'pageNum' in shape ? 'pageNum' : 'pageNo';
}

/**
 * One paged list of a call (PAGING.md): the page number, size and cursor live here; a new filter
 * (compared by value) starts again at page 1. Moving one page carries the cursor of the shown reply
 * (a keyset step on the server); any other jump goes by page number (bounded on the server).
 */
export function usePagedList<C extends CallDef>(def: C, filter: ListFilter<C>, opts: PagedListOptions = {}) {
  const filterKey = JSON.stringify(filter);
  const [state, setState] = useState<{ filterKey: string; page: Paged }>({
    filterKey,
    page: { pageNo: 1, pageSize: opts.pageSize ?? 20 },
  });
  // Another filter: page 1 of it, keeping the chosen size (derived here, so no request goes out for the old page).
  const page: Paged = state.filterKey === filterKey ? state.page : { pageNo: 1, pageSize: state.page.pageSize };
  const setPage = (next: Paged) => setState({ filterKey, page: next });

  const body = {
    ...filter,
    [pageNoField(def)]: page.pageNo,
    pageSize: page.pageSize,
    ...(page.cursor ? { cursor: page.cursor } : {}),
  } as CallBody<C>;
  const query = useQuery({
    queryKey: [...(opts.queryKey ?? [def.path]), body],
    queryFn: () => call(def, body),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });

  const data = query.data ?? undefined;
  const reply = data as { total?: number; cursor?: PageCursors } | undefined;
  const total = reply?.total ?? 0;

  // Rows removed under the page (a delete, another user): show the last page that still has rows.
  const lastPage = Math.max(1, Math.ceil(total / page.pageSize));
  const stale = !query.isPlaceholderData && reply !== undefined && page.pageNo > lastPage;
  useEffect(() => {
    if (stale) setState({ filterKey, page: { pageNo: lastPage, pageSize: page.pageSize } });
  }, [stale, filterKey, lastPage, page.pageSize]);

  const pagination: TablePaginationConfig = {
    current: page.pageNo,
    pageSize: page.pageSize,
    total,
    showSizeChanger: true,
    showTotal: (n: number) => `共 ${formatCount(n)} 条`,
    onChange: (to, size) => setPage(movePage(page, to, size, reply)),
  };

  return {
    data: data as CallData<C> | undefined,
    isLoading: query.isLoading,
    isFetching: query.isFetching,
    error: query.error,
    refetch: query.refetch,
    pageNo: page.pageNo,
    pageSize: page.pageSize,
    total,
    pagination,
  };
}

export type PagedList<C extends CallDef> = ReturnType<typeof usePagedList<C>>;
