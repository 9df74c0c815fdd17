import { z } from 'zod';
import { defineCall } from './call.js';

/** Portal counts (foundation.md §3 "Counts"): null authorisation means unlimited, shown as ∞. */
export const bookCountSchema = z.object({
  qyxzsl: z.number().nullable(),
  jzxzsl: z.number().nullable(),
  curQyCount: z.number(),
  curYearMonthJzCount: z.number(),
  staffCount: z.number(),
  /** Clients in the caller's data scope (all of the agency's for an administrator). */
  scopeQyCount: z.number(),
  /** Whether the caller's scope is the whole agency (administrator or special permission). */
  wholeAgency: z.boolean(),
});

export const getQyBookCountInfoCall = defineCall({
  path: 'user/getQyBookCountInfo',
  summary: '门户统计：客户数、账套数、员工数',
  access: 'dashboard:counts:view',
  body: z.strictObject({ agencyId: z.number().int().positive().optional() }),
  data: bookCountSchema,
});
