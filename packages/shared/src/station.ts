import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

// Paging (business.md §9): page 1 and size 20 unless asked; sizes up to 500.
const pagingShape = {
  pageNo: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(500).default(20),
  ...cursorField,
};

const idSchema = z.number().int().positive();

/** Columns the list can be sorted by; without one, the default entry first, then oldest first. */
export const STATION_SORT_FIELDS = ['name', 'memberCount', 'createdAt'] as const;
const sortShape = {
  sortField: z.enum(STATION_SORT_FIELDS).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
};

export const STATION_NAME_MAX = 20;

/** A post (岗位) such as 服务顾问; the default one is given to every new member. */
export const stationItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  isDefault: z.boolean(),
  memberCount: z.number(),
  createdAt: z.string(),
});
export type StationItem = z.infer<typeof stationItemSchema>;

/** A member as the post dialogs show them. */
export const stationMemberSchema = z.object({ userId: z.number(), hymc: z.string(), phone: z.string() });
export type StationMember = z.infer<typeof stationMemberSchema>;

export const stationListCall = defineCall({
  path: 'user/station/list',
  summary: '岗位管理：本机构岗位列表（按名称搜索、分页）',
  access: 'station:list:view',
  body: z.strictObject({ name: z.string().trim().max(STATION_NAME_MAX).optional(), ...sortShape, ...pagingShape }),
  data: z.object({ list: z.array(stationItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const saveStationCall = defineCall({
  path: 'user/station/save',
  summary: '岗位管理：新增或重命名岗位（名称在本机构内唯一）',
  access: 'station:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    name: z.string().trim().min(1, '请输入岗位名称').max(STATION_NAME_MAX, `岗位名称不能超过${STATION_NAME_MAX}个字符`),
  }),
  data: z.object({ id: z.number() }),
});

export const deleteStationCall = defineCall({
  path: 'user/station/delete',
  summary: '岗位管理：删除岗位（默认岗位服务顾问不可删除）',
  access: 'station:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const stationMembersCall = defineCall({
  path: 'user/relation/getUsersByStationId',
  summary: '岗位管理：岗位的成员',
  access: 'station:list:view',
  body: z.strictObject({ stationId: idSchema }),
  data: z.array(stationMemberSchema),
});

export const saveStationMembersCall = defineCall({
  path: 'user/station/saveMembers',
  summary: '岗位管理：设置岗位的成员（整体替换）',
  access: 'station:edit',
  body: z.strictObject({ stationId: idSchema, userIds: z.array(idSchema).max(5000) }),
  data: z.null(),
});

export const stationCandidatesCall = defineCall({
  path: 'user/station/candidates',
  summary: '岗位管理：可加入岗位的本机构成员',
  access: 'station:edit',
  body: z.strictObject({}),
  data: z.array(stationMemberSchema),
});
