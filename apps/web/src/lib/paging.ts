import type { PageCursors } from '@dzy/shared';

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
