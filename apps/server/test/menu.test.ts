import { CODE, getRoutersCall, type MenuNode } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuTreeFor } from '../src/modules/menu/menu.routes.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectSignedOut, expectUnknownField, registerBySms } from './helpers.js';

type Routers = { menus: MenuNode[]; buttons: string[] };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const routersOf = async (cookie: string) => {
  const r = await t.call<Routers>(getRoutersCall.path, {}, cookie);
  expect(r.code).toBe(CODE.OK);
  return r.data;
};

/** The tree as titles, for reading: '设置 > 个人设置'. */
const titles = (nodes: MenuNode[], prefix = ''): string[] =>
  nodes.flatMap((n) => [`${prefix}${n.title}`, ...titles(n.children, `${prefix}${n.title} > `)]);

const SETTINGS_FOR_ALL = ['设置', '设置 > 个人设置', '设置 > 修改密码'];
const CLIENT_BOOK = [
  '客户',
  '客户 > 客户管理',
  '客户 > 客户管理 > 我的客户',
  '客户 > 客户管理 > 回收站',
  '客户 > 商务管理',
  '客户 > 商务管理 > 商机列表',
  '客户 > 商务管理 > 公海',
  '客户 > 商务管理 > 工单列表',
  '客户 > 商务管理 > 工单模板',
  '客户 > 商务管理 > 数据列表',
];
const CONTRACTS_FEES_DECLARE = [
  '合同',
  '合同 > 合同管理',
  '合同 > 合同管理 > 合同列表',
  '合同 > 合同设置',
  '合同 > 合同设置 > 服务项目',
  '合同 > 合同设置 > 合同模板',
  '合同 > 合同设置 > 合同提醒设置',
  '合同 > 合同设置 > 特殊权限',
  '收费',
  '收费 > 收费管理',
  '收费 > 收费管理 > 收费列表',
  '申报',
  '申报 > 报税检查',
  '申报 > 税务数据',
  '申报 > 申报清册',
  '申报 > 申报概览',
  '申报 > 征期日历',
  '申报 > 漏报检查',
  '申报 > 申报设置',
  '申报 > 申报计划',
  '账务',
  '账务 > 账套管理',
  '账务 > 凭证',
  '账务 > 账簿',
  '账务 > 财务报表',
  '账务 > 期末结账',
  '账务 > 批量打印',
  '账务 > 记账设置',
  '发票',
  '发票 > 销项发票',
  '发票 > 进项发票',
  '发票 > 发票池',
  '发票 > 发票统计',
  // 财税课堂: open to every signed-in user.
  '财税课堂',
];
const AGENCY_ADMIN_PAGES = [
  '设置 > 代理机构信息',
  '设置 > 员工管理',
  '设置 > 部门管理',
  '设置 > 角色权限',
  '设置 > 岗位管理',
  // On the dljghdkjgcmenu white list in the demo (issue 18 point 1).
  '设置 > 会计工厂管理',
  // Issue 18 point 6.
  '设置 > 操作日志',
  // Issue 18 point 4: administrator-only.
  '设置 > API 密钥',
  '设置 > Webhook',
];

describe('getRouters', () => {
  it('gives the administrator 门户 and 设置 with every settings page, and the wildcard buttons', async () => {
    const { menus, buttons } = await routersOf(await t.login('13800000000'));
    expect(buttons).toEqual(['*:*:*']);
    expect(menus[0]).toEqual({
      id: 1,
      type: 'C',
      title: '门户',
      path: '/dashboard',
      icon: 'HomeOutlined',
      children: [],
    });
    const settings = menus.find((m) => m.title === '设置');
    expect(settings).toMatchObject({ id: 10, type: 'M', path: '/nested' });
    expect(settings?.children.slice(0, 2)).toEqual([
      { id: 223, type: 'C', title: '个人设置', path: '/nested/menu1/baseInfo', children: [] },
      { id: 224, type: 'C', title: '修改密码', path: '/nested/menu1/changePassword', children: [] },
    ]);
    expect(titles(menus)).toEqual(expect.arrayContaining(['门户', ...SETTINGS_FOR_ALL, ...AGENCY_ADMIN_PAGES]));
  });

  it("does not give an agency's administrator the platform operator's pages", async () => {
    const { menus } = await routersOf(await t.login('13800000000'));
    expect(titles(menus)).toEqual([
      '门户',
      ...CLIENT_BOOK,
      ...CONTRACTS_FEES_DECLARE,
      ...SETTINGS_FOR_ALL,
      ...AGENCY_ADMIN_PAGES,
    ]);
  });

  it('gives an accountant the pages and buttons of their role, never the wildcard', async () => {
    const { menus, buttons } = await routersOf(await t.login('13800000002'));
    expect(buttons).not.toContain('*:*:*');
    expect(buttons).toContain('dashboard:counts:view');
    const seen = titles(menus);
    expect(seen).toEqual(expect.arrayContaining(['门户', ...SETTINGS_FOR_ALL]));
    expect(seen).not.toContain('设置 > 代理机构信息');
    expect(seen).not.toContain('设置 > 角色权限');
  });

  it('gives the platform operator the review page and no agency pages', async () => {
    const { menus, buttons } = await routersOf(await t.login('13600000000'));
    expect(buttons).toEqual([
      'platform:apply:review',
      'platform:content:edit',
      'platform:brand:edit',
      'platform:benefit:edit',
      'platform:audit:view',
      'platform:dict:edit',
    ]);
    expect(titles(menus)).toEqual([
      '门户',
      '财税课堂',
      ...SETTINGS_FOR_ALL,
      '平台运营',
      '平台运营 > 入驻审核',
      '平台运营 > 课堂内容',
      '平台运营 > 服务商品牌',
      '平台运营 > 机构权益',
      '平台运营 > 平台日志',
      '平台运营 > 字典与客服',
    ]);
  });

  it('gives a user without an organisation the open pages and no buttons', async () => {
    const { menus, buttons } = await routersOf(await registerBySms(t, '13811140001'));
    expect(buttons).toEqual([]);
    expect(titles(menus)).toEqual(['门户', '财税课堂', ...SETTINGS_FOR_ALL]);
  });

  it('refuses without a session', async () => {
    expectSignedOut(await t.call(getRoutersCall.path, {}));
  });

  it('refuses unknown fields (a caller cannot ask for another org or role)', async () => {
    const cookie = await t.login('13800000002');
    expectUnknownField(await t.call(getRoutersCall.path, { orgType: 'dls' }, cookie), 'orgType');
    expectUnknownField(await t.call(getRoutersCall.path, { isAdmin: '1' }, cookie), 'isAdmin');
  });
});

describe('menuTreeFor', () => {
  it('drops a directory left without pages and pages whose permission is not held', () => {
    const open = titles(menuTreeFor([]));
    expect(open).toEqual(['门户', '财税课堂', ...SETTINGS_FOR_ALL]);
    expect(titles(menuTreeFor(['staff:list:view']))).toContain('设置 > 员工管理');
    expect(titles(menuTreeFor(['staff:list:view']))).not.toContain('设置 > 部门管理');
  });
});
