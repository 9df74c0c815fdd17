import { z } from 'zod';
import { defineCall } from './call.js';

const idSchema = z.number().int().positive();

export const DEPARTMENT_NAME_MAX = 30;

/** One department of the agency's organisation tree (foundation.md §7 "Organisation tree"). */
export interface DepartmentNode {
  id: number;
  name: string;
  directorUserId: number | null;
  directorName: string | null;
  /** Members placed directly in this department (not counting sub-departments). */
  memberCount: number;
  children: DepartmentNode[];
}

export const departmentNodeSchema: z.ZodType<DepartmentNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    name: z.string(),
    directorUserId: z.number().nullable(),
    directorName: z.string().nullable(),
    memberCount: z.number(),
    children: z.array(departmentNodeSchema),
  }),
);

/** A member as the department page shows them; role is the label 0 部门员工, 1 代理所管理员, 2 部门负责人. */
export const departmentMemberSchema = z.object({
  userId: z.number(),
  hymc: z.string(),
  phone: z.string(),
  role: z.number(),
  isAdmin: z.boolean(),
  departmentId: z.number().nullable(),
  departmentName: z.string().nullable(),
});
export type DepartmentMember = z.infer<typeof departmentMemberSchema>;

export const departmentTreeCall = defineCall({
  path: 'user/agency/org/tree',
  summary: '部门管理：本机构部门树',
  access: 'org:dept:view',
  body: z.strictObject({}),
  data: z.array(departmentNodeSchema),
});

export const saveDepartmentCall = defineCall({
  path: 'user/agency/org/saveOrgAndDirectorInfo',
  summary: '部门管理：新增或修改部门（上级部门、名称、负责人）',
  access: 'org:dept:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    /** Parent department; absent or null for a top-level one. */
    pid: idSchema.nullable().optional(),
    name: z
      .string()
      .trim()
      .min(1, '请输入部门名称')
      .max(DEPARTMENT_NAME_MAX, `部门名称不能超过${DEPARTMENT_NAME_MAX}个字符`),
    /** The director; null removes the director, absent leaves it as it is. */
    directorUserId: idSchema.nullable().optional(),
  }),
  data: z.object({ id: z.number() }),
});

export const departmentInfoSchema = z.object({
  id: z.number(),
  pid: z.number().nullable(),
  name: z.string(),
  directorUserId: z.number().nullable(),
  directorName: z.string().nullable(),
  memberCount: z.number(),
  childCount: z.number(),
});
export type DepartmentInfo = z.infer<typeof departmentInfoSchema>;

export const departmentInfoCall = defineCall({
  path: 'user/agency/org/getOrgInfo',
  summary: '部门管理：部门详情',
  access: 'org:dept:view',
  body: z.strictObject({ id: idSchema }),
  data: departmentInfoSchema,
});

export const deleteDepartmentCall = defineCall({
  path: 'user/agency/org/deleteOrg',
  summary: '部门管理：删除部门（须先删除下级部门；成员变为未分配）',
  access: 'org:dept:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const departmentStaffCall = defineCall({
  path: 'user/agency/org/getOrgStaffs',
  summary: '部门管理：部门的成员',
  access: 'org:dept:view',
  body: z.strictObject({ pid: idSchema }),
  data: z.array(departmentMemberSchema),
});

export const unassignedStaffCall = defineCall({
  path: 'user/agency/org/getUnassigned',
  summary: '部门管理：未分配部门的成员',
  access: 'org:dept:view',
  body: z.strictObject({}),
  data: z.array(departmentMemberSchema),
});

export const departmentAllStaffCall = defineCall({
  path: 'user/agency/org/getAgencyStaffs',
  summary: '部门管理：本机构全部成员及其部门（选择负责人、调整部门时使用）',
  access: 'org:dept:view',
  body: z.strictObject({}),
  data: z.array(departmentMemberSchema),
});

export const changeDepartmentCall = defineCall({
  path: 'user/agency/org/changePersonOrg',
  summary: '部门管理：调整成员的部门（null 为未分配）',
  access: 'staff:dept:change',
  body: z.strictObject({
    userIds: z.array(idSchema).min(1, '请选择成员').max(1000),
    orgId: idSchema.nullable(),
  }),
  data: z.null(),
});
