import {
  CODE,
  checkPasswordCall,
  deleteWhiteOrderCall,
  getAgencyInfoListCall,
  getRoutersCall,
  LBSJC_MSG,
  lbsjcAccessCall,
  type MenuNode,
  saveWhiteOrderCall,
  whitelistByQyshCall,
  wjkDictCall,
  wsbDictCall,
} from '@dzy/shared';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterprises, organisations } from '../src/db/schema/index.js';
import { WHITELIST_OFF_MSG } from '../src/lib/whitelist.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * Every white list gates what it names (issue 18 point 2): off, the page is absent from getRouters and the
 * server refuses the call; on, both are there. 鸿信 (the second demo agency) starts on no list.
 */
let t: TestApp;
let operator = '';
let other = '';
let otherId = 0;
const client = { id: 0, qysh: '', province: '' };

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      const [o] = await owner
        .select({ id: organisations.id })
        .from(organisations)
        .where(eq(organisations.name, '鸿信财务咨询有限公司'));
      if (!o) throw new Error('鸿信');
      otherId = o.id;
      const [e] = await owner
        .select()
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, o.id), ne(enterprises.qysh, ''), ne(enterprises.sssf, '')))
        .limit(1);
      if (!e) throw new Error('no client of 鸿信 with a tax number and a province');
      Object.assign(client, { id: e.id, qysh: e.qysh, province: `${e.sssf.slice(0, 2)}0000` });
    },
  });
  [operator, other] = await Promise.all([t.login('13600000000'), t.login('13900000000')]);
}, 300_000);
afterAll(() => t.close());

const titles = (nodes: MenuNode[], prefix = ''): string[] =>
  nodes.flatMap((n) => [`${prefix}${n.title}`, ...titles(n.children, `${prefix}${n.title} > `)]);
const menu = async () => titles((await t.call<{ menus: MenuNode[] }>(getRoutersCall.path, {}, other)).data.menus);
const turnOn = async (type: string, busiVal = String(otherId)) => {
  const r = await t.call<{ id: number }>(saveWhiteOrderCall.path, { type, busiVal }, operator);
  expect(r.code).toBe(CODE.OK);
  return r.data.id;
};
const refused = (r: { code: number; msg: string }, msg: string) =>
  expect([r.code, r.msg]).toEqual([CODE.NO_PERMISSION, msg]);

describe('lbsjc: 漏报检查', () => {
  it('off: the page is absent and the calls are refused; on: both present', async () => {
    expect(await menu()).not.toContain('申报 > 漏报检查');
    refused(await t.call(wjkDictCall.path, {}, other), LBSJC_MSG.notOpen);
    expect((await t.call(lbsjcAccessCall.path, {}, other)).data).toEqual({ lbsjc: false, wsbsdt: false });
    await turnOn('lbsjc');
    expect(await menu()).toContain('申报 > 漏报检查');
    expect((await t.call(wjkDictCall.path, {}, other)).code).toBe(CODE.OK);
  });
});

describe('wsbsdt: 未申报查询 (a view of the 漏报检查 page)', () => {
  it('off: the page offers no unfiled view and its calls are refused; on: both present', async () => {
    expect((await t.call(lbsjcAccessCall.path, {}, other)).data).toEqual({ lbsjc: true, wsbsdt: false });
    refused(await t.call(wsbDictCall.path, {}, other), LBSJC_MSG.wsbNotOpen);
    await turnOn('wsbsdt');
    expect((await t.call(lbsjcAccessCall.path, {}, other)).data).toEqual({ lbsjc: true, wsbsdt: true });
    expect((await t.call(wsbDictCall.path, {}, other)).code).toBe(CODE.OK);
  });
});

describe('dljghdkjgcmenu: 会计工厂管理', () => {
  it('off: the page is absent and the calls are refused; on: both present; off again at once', async () => {
    expect(await menu()).not.toContain('设置 > 会计工厂管理');
    refused(await t.call(getAgencyInfoListCall.path, {}, other), WHITELIST_OFF_MSG.dljghdkjgcmenu);
    const id = await turnOn('dljghdkjgcmenu');
    expect(await menu()).toContain('设置 > 会计工厂管理');
    const list = await t.call<{ total: number }>(getAgencyInfoListCall.path, {}, other);
    expect([list.code, list.data.total]).toEqual([CODE.OK, 0]);
    expect((await t.call(deleteWhiteOrderCall.path, { id }, operator)).code).toBe(CODE.OK);
    expect(await menu()).not.toContain('设置 > 会计工厂管理');
    refused(await t.call(getAgencyInfoListCall.path, {}, other), WHITELIST_OFF_MSG.dljghdkjgcmenu);
  });
});

describe("kxdlmmjy: 可信登录密码校验, by the client's province", () => {
  const check = () =>
    t.call(checkPasswordCall.path, { aeiId: client.id, dlsf: '1', kxzh: client.qysh, kxmm: 'Wrong@123' }, other);

  it('off: the form is told not to offer it and the check is refused; on: offered and run', async () => {
    const off = await t.call<{ kxdlmmjy: boolean }>(whitelistByQyshCall.path, { qysh: client.qysh }, other);
    expect(off.data.kxdlmmjy).toBe(false);
    refused(await check(), WHITELIST_OFF_MSG.kxdlmmjy);
    // The agency's own id does not switch it: the list names provinces.
    await turnOn('kxdlmmjy');
    refused(await check(), WHITELIST_OFF_MSG.kxdlmmjy);
    await turnOn('kxdlmmjy', client.province);
    const on = await t.call<{ kxdlmmjy: boolean }>(whitelistByQyshCall.path, { qysh: client.qysh }, other);
    expect(on.data.kxdlmmjy).toBe(true);
    const r = await check();
    expect(r.code, r.msg).not.toBe(CODE.NO_PERMISSION);
  });
});
