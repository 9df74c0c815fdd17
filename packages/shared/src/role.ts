import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import type { MenuType } from './permissions.js';

// Paging (business.md §9): page 1 and size 20 unless asked; sizes up to 500.
const pagingShape = {
  pageNo: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(500).default(20),
  ...cursorField,
};

const idSchema = z.number().int().positive();

/** Columns the list can be sorted by; without one, the default entry first, then oldest first. */
export const ROLE_SORT_FIELDS = ['name', 'memberCount', 'createdAt'] as const;
const sortShape = {
  sortField: z.enum(ROLE_SORT_FIELDS).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
};

export const ROLE_NAME_MAX = 20;
export const ROLE_REMARK_MAX = 100;

/** An agency role: a named set of permission keys held by the members it is given to. */
export const roleItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  remark: z.string(),
  /** The role every new member gets (普通员工); it cannot be deleted. */
  isDefault: z.boolean(),
  memberCount: z.number(),
  perms: z.array(z.string()),
  createdAt: z.string(),
});
export type RoleItem = z.infer<typeof roleItemSchema>;

export const roleListCall = defineCall({
  path: 'user/agencyRole/selectAgencyRoleListByUserAgency',
  summary: '角色权限：本机构角色列表（按名称搜索、分页）',
  access: 'role:list:view',
  body: z.strictObject({ name: z.string().trim().max(ROLE_NAME_MAX).optional(), ...sortShape, ...pagingShape }),
  data: z.object({ list: z.array(roleItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const saveRoleCall = defineCall({
  path: 'user/agencyRole/saveOrUpdateRole',
  summary: '角色权限：新增或修改角色（名称在本机构内唯一）',
  access: 'role:edit',
  body: z.strictObject({
    id: idSchema.optional(),
    name: z.string().trim().min(1, '请输入角色名称').max(ROLE_NAME_MAX, `角色名称不能超过${ROLE_NAME_MAX}个字符`),
    remark: z.string().trim().max(ROLE_REMARK_MAX, `备注不能超过${ROLE_REMARK_MAX}个字符`).optional(),
  }),
  data: z.object({ id: z.number() }),
});

/** The spec writes the id in the path (deleteAgencyRole/{id}); here it travels in the body like every id. */
export const deleteRoleCall = defineCall({
  path: 'user/agencyRole/deleteAgencyRole',
  summary: '角色权限：删除角色（默认角色不可删除；成员保留其他角色）',
  access: 'role:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

/** One node of the function-permission tree (gnqx): directories, pages and buttons of the menu registry. */
export interface PermNode {
  id: number;
  title: string;
  menutype: MenuType;
  /** The permission key the node grants; null for a directory or a page open to everyone. */
  perm: string | null;
  checked: boolean;
  /** False for nodes a role cannot grant (open pages, administrator-only functions). */
  checkable: boolean;
  /** Only administrators hold it; shown so the tree is complete, never checkable. */
  adminOnly: boolean;
  children: PermNode[];
}

export const permNodeSchema: z.ZodType<PermNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    title: z.string(),
    menutype: z.enum(['M', 'C', 'F']),
    perm: z.string().nullable(),
    checked: z.boolean(),
    checkable: z.boolean(),
    adminOnly: z.boolean(),
    children: z.array(permNodeSchema),
  }),
);

export const permTreeCall = defineCall({
  path: 'user/v1.0/gnqxTreeQuery',
  summary: '角色权限：角色的功能权限树',
  access: 'role:list:view',
  body: z.strictObject({ roleId: idSchema }),
  data: z.array(permNodeSchema),
});

export const savePermsCall = defineCall({
  path: 'user/v1.0/saveGnqx',
  summary: '角色权限：保存角色的功能权限（仅可授予可分配的权限）',
  access: 'role:edit',
  body: z.strictObject({ roleId: idSchema, perms: z.array(z.string().max(100)).max(500) }),
  data: z.null(),
});

export const saveMemberRolesCall = defineCall({
  path: 'user/v1.0/saveYhGw',
  summary: '角色权限：设置成员的角色与岗位',
  access: 'role:edit',
  body: z.strictObject({
    userId: idSchema,
    roleIds: z.array(idSchema).min(1, '请至少选择一个角色').max(100),
    stationIds: z.array(idSchema).max(100),
  }),
  data: z.null(),
});

/** A member of the agency with the roles and posts they hold. */
export const memberRolesSchema = z.object({
  userId: z.number(),
  hymc: z.string(),
  phone: z.string(),
  /** Administrators hold every permission whatever their roles. */
  isAdmin: z.boolean(),
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
  stations: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type MemberRoles = z.infer<typeof memberRolesSchema>;

export const memberRoleListCall = defineCall({
  path: 'user/agencyRole/selectMemberRoleList',
  summary: '角色权限：成员及其角色、岗位（按姓名或手机号、角色筛选，分页）',
  access: 'role:list:view',
  body: z.strictObject({
    keyword: z.string().trim().max(20).optional(),
    roleId: idSchema.optional(),
    ...pagingShape,
  }),
  data: z.object({ list: z.array(memberRolesSchema), total: z.number(), cursor: pageCursorsSchema }),
});
