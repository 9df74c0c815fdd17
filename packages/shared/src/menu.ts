import { z } from 'zod';
import { defineCall } from './call.js';

export interface MenuNode {
  id: number;
  type: 'M' | 'C';
  title: string;
  path: string;
  icon?: string;
  children: MenuNode[];
}

const menuNode: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    type: z.enum(['M', 'C']),
    title: z.string(),
    path: z.string(),
    icon: z.string().optional(),
    children: z.array(menuNode),
  }),
);

export const getRoutersCall = defineCall({
  path: 'user/menu/getRouters',
  summary: '当前用户的菜单树与按钮权限',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ menus: z.array(menuNode), buttons: z.array(z.string()) }),
});
