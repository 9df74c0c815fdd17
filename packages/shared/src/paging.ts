import { z } from 'zod';

/**
 * Paging shared by every list: the spec's pageNo (or pageNum) and pageSize, plus the cursor the
 * previous reply gave for moving to the page next to it (apps/server/src/db/paging.ts).
 */
export const cursorField = { cursor: z.string().max(2000).optional() };

/** Cursors to the pages before and after this one (null at either end). */
export const pageCursorsSchema = z.object({ next: z.string().nullable(), prev: z.string().nullable() });
export type PageCursors = z.infer<typeof pageCursorsSchema>;

export const PAGING_MSG = {
  badCursor: '翻页参数无效，请回到第一页重新查询',
  tooDeep: '页码太靠中间了：请用筛选条件缩小范围，或从首页、末页翻起',
} as const;
