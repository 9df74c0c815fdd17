import {
  type AgencyInfo,
  AQ_URL_MSG,
  type AqUrlItem,
  CODE,
  DICT_SEED,
  type DictItem,
  type DictValue,
  deleteAqUrlCall,
  deleteDictCall,
  getAgencyInfoCall,
  getAqUrlCall,
  getDictDataCall,
  getSysDictListCall,
  getTyyyglDataCall,
  listAqUrlCall,
  listDictAdminCall,
  saveAqUrlCall,
  saveDictCall,
  updateAgencyInfoCall,
  whitelistCheckCall,
  whitelistSaveCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut } from './helpers.js';
import { ADMIN, auditOf, ID, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

const OPERATOR = '13600000000';
let t: TestApp;
const c = { admin: '', zhang: '', other: '', op: '' };

beforeAll(async () => {
  t = await startTestApp();
  c.admin = await t.login(ADMIN);
  c.zhang = await t.login(ZHANG);
  c.other = await t.login(OTHER_ADMIN);
  c.op = await t.login(OPERATOR);
}, 900_000);
afterAll(() => t?.close());

type AdminPage = {
  list: (DictItem & { typeName: string })[];
  total: number;
  types: { dictType: string; name: string; count: number }[];
};
const values = (group: string, cookie = c.zhang) =>
  t.call<DictValue[]>(getDictDataCall.path, { dictGroup: group }, cookie);
const adminList = (body: Record<string, unknown>, cookie = c.op) =>
  t.call<AdminPage>(listDictAdminCall.path, { pageSize: 100, ...body }, cookie);

describe('dictionaries as data', () => {
  it('are seeded with the constants the product ships (DICT_SEED), in order', async () => {
    for (const g of DICT_SEED) {
      const r = await values(g.type);
      expect(r.code).toBe(CODE.OK);
      expect(r.data).toEqual(g.items.map((i) => ({ code: i.code, label: i.label })));
    }
    const types = await t.call<{ dictType: string; name: string; count: number }[]>(
      getSysDictListCall.path,
      {},
      c.zhang,
    );
    expect(types.data.map((x) => [x.dictType, x.name, x.count]).sort()).toEqual(
      DICT_SEED.map((g) => [g.type, g.name, g.items.length]).sort(),
    );
    const apps = await t.call<DictValue[]>(getTyyyglDataCall.path, {}, c.other);
    expect(apps.data.map((a) => a.label)).toContain('AI 咨询');
    expect(await values('no_such_type')).toMatchObject({ code: CODE.OK, data: [] });
  });

  it('the operator edits them and every reader gets the change; a disabled value is no longer offered', async () => {
    const page = await adminList({ dictType: 'agency_scale' });
    expect(page.code).toBe(CODE.OK);
    expect(page.data.total).toBe(5);
    const first = page.data.list[0];
    if (!first) throw new Error('no agency_scale values');
    const off = await t.call(
      saveDictCall.path,
      {
        id: first.id,
        dictType: first.dictType,
        typeName: first.typeName,
        dictCode: first.code,
        label: '20人以下（含）',
        enabled: false,
        sort: 5,
      },
      c.op,
    );
    expect(off.code).toBe(CODE.OK);
    expect((await values('agency_scale')).data.map((v) => v.code)).toEqual(['2', '3', '4', '5']);
    const added = await t.call<{ id: number }>(
      saveDictCall.path,
      { dictType: 'agency_scale', typeName: '机构规模', dictCode: '6', label: '1000人以上', sort: 60, enabled: true },
      c.op,
    );
    expect(added.code).toBe(CODE.OK);
    expect((await values('agency_scale', c.other)).data.at(-1)).toEqual({ code: '6', label: '1000人以上' });
    const dup = await t.call(
      saveDictCall.path,
      { dictType: 'agency_scale', typeName: '机构规模', dictCode: '6', label: '重复', sort: 1, enabled: true },
      c.op,
    );
    expect([dup.code, dup.msg]).toEqual([CODE.CONFLICT, '该字典类型下已有编码「6」']);
    // The agency form takes what the dictionary holds: the added 6, not the switched-off 1 nor an unknown 7.
    const info = (await t.call<AgencyInfo>(getAgencyInfoCall.path, {}, c.admin)).data;
    const edit = (agencyScale: number) =>
      t.call(
        updateAgencyInfoCall.path,
        { address: info.address, link: info.link, linkPhone: info.linkPhone, staffNum: 2, agencyScale },
        c.admin,
      );
    expect((await edit(6)).code).toBe(CODE.OK);
    expect((await t.call<AgencyInfo>(getAgencyInfoCall.path, {}, c.admin)).data.agencyScale).toBe(6);
    expectBadInput(await edit(1), '机构规模', '请选择机构规模');
    expectBadInput(await edit(7), '机构规模', '请选择机构规模');
    expect((await edit(3)).code).toBe(CODE.OK);
    expect((await t.call(deleteDictCall.path, { id: added.data.id }, c.op)).code).toBe(CODE.OK);
    const gone = await t.call(deleteDictCall.path, { id: added.data.id }, c.op);
    expect([gone.code, gone.msg]).toEqual([CODE.NOT_FOUND, '字典值不存在']);
    const log = await t.ownerQuery<{ action: string }>(
      "select action from audit_log where action like 'platform.dict_%' order by id",
    );
    expect(log.map((l) => l.action)).toEqual(['platform.dict_save', 'platform.dict_save', 'platform.dict_delete']);
  });

  it('only the platform operator edits: an agency administrator is refused, and nothing changes', async () => {
    expectNoPermission(await adminList({}, c.admin));
    const row = { dictType: 'hydj', typeName: '会员等级', dictCode: '99', label: '越权', sort: 1, enabled: true };
    expectNoPermission(await t.call(saveDictCall.path, row, c.admin));
    expectNoPermission(await t.call(deleteDictCall.path, { id: 1 }, c.admin));
    expect((await values('hydj')).data.some((v) => v.code === '99')).toBe(false);
    expectSignedOut(await values('hydj', ''));
  });

  it('refuses bad input with the field named in Chinese', async () => {
    expectBadInput(await values('Bad-Type'), '字典类型', '字典类型只能包含小写字母、数字和下划线，并以字母开头');
    const good = { dictType: 'hydj', typeName: '会员等级', dictCode: '9', label: '名称', sort: 1, enabled: true };
    expectBadInput(await t.call(saveDictCall.path, { ...good, label: '' }, c.op), '名称', '请输入名称');
    expectBadInput(
      await t.call(saveDictCall.path, { ...good, dictCode: '中文' }, c.op),
      '编码',
      '编码只能包含字母、数字、下划线、点和横线',
    );
    expectBadInput(await t.call(saveDictCall.path, { ...good, sort: 1.5 }, c.op), '排序', '排序须为整数');
    const missing = await t.call(saveDictCall.path, { ...good, id: 999999 }, c.op);
    expect([missing.code, missing.msg]).toEqual([CODE.NOT_FOUND, '字典值不存在']);
  });
});

describe('customer service: the AI knowledge whitelist and address', () => {
  type Aq = { aqUrl: string; regionCode: string; configured: boolean; whitelistResult: boolean };
  const aq = (cookie: string) => t.call<Aq>(getAqUrlCall.path, {}, cookie);

  it('says plainly it is not configured until the operator sets an address; the most precise region wins', async () => {
    expect((await aq(c.admin)).data).toEqual({ aqUrl: '', regionCode: '', configured: false, whitelistResult: false });
    expect(AQ_URL_MSG.notConfigured).toContain('尚未配置');
    const save = (regionCode: string, url: string, cookie = c.op) =>
      t.call(saveAqUrlCall.path, { regionCode, url }, cookie);
    expect((await save('', 'https://ai.example.cn/')).code).toBe(CODE.OK);
    expect((await save('330000', 'https://zj.ai.example.cn/')).code).toBe(CODE.OK);
    expect((await save('330100', 'https://hz.ai.example.cn/')).code).toBe(CODE.OK);
    // 演示财税代理 is in 杭州 (330100); 鸿信 in 深圳 gets the nationwide default.
    expect((await aq(c.zhang)).data).toMatchObject({
      aqUrl: 'https://hz.ai.example.cn/',
      regionCode: '330100',
      configured: true,
    });
    expect((await aq(c.other)).data).toMatchObject({
      aqUrl: 'https://ai.example.cn/',
      regionCode: '',
      configured: true,
    });
    expect((await t.call(deleteAqUrlCall.path, { regionCode: '330100' }, c.op)).code).toBe(CODE.OK);
    expect((await aq(c.zhang)).data.aqUrl).toBe('https://zj.ai.example.cn/');
    const list = await t.call<AqUrlItem[]>(listAqUrlCall.path, {}, c.op);
    expect(list.data.map((r) => [r.regionCode, r.regionName])).toEqual([
      ['', '全国（默认）'],
      ['330000', '浙江省'],
    ]);
  });

  it('only the operator sets addresses; bad addresses and unknown regions are refused', async () => {
    expectNoPermission(await t.call(saveAqUrlCall.path, { regionCode: '', url: 'https://evil.example/' }, c.admin));
    expectNoPermission(await t.call(listAqUrlCall.path, {}, c.zhang));
    expectNoPermission(await t.call(deleteAqUrlCall.path, { regionCode: '' }, c.admin));
    expectBadInput(
      await t.call(saveAqUrlCall.path, { regionCode: '', url: 'javascript:alert(1)' }, c.op),
      '链接',
      AQ_URL_MSG.badUrl,
    );
    expectBadInput(await t.call(saveAqUrlCall.path, { regionCode: '33', url: 'https://a.cn/' }, c.op), '地区编码');
    const unknown = await t.call(saveAqUrlCall.path, { regionCode: '990000', url: 'https://a.cn/' }, c.op);
    expect([unknown.code, unknown.msg]).toEqual([CODE.BAD_REQUEST, '地区编码不存在，请选择省、市或区县']);
    expect((await aq(c.other)).data.aqUrl).toBe('https://ai.example.cn/');
  });

  it('the whitelist is per user and agency: saving adds only oneself, another agency does not see it', async () => {
    expect((await t.call(whitelistCheckCall.path, {}, c.zhang)).data).toEqual({ exists: false });
    const saved = await t.call(whitelistSaveCall.path, { orderNo: 'AI-2026-001', userPhone: ZHANG }, c.zhang);
    expect(saved).toMatchObject({ code: CODE.OK, data: { exists: true } });
    expect((await t.call(whitelistCheckCall.path, {}, c.zhang)).data).toEqual({ exists: true });
    expect((await aq(c.zhang)).data.whitelistResult).toBe(true);
    expect((await t.call(whitelistCheckCall.path, {}, c.admin)).data).toEqual({ exists: false });
    expect((await t.call(whitelistCheckCall.path, {}, c.other)).data).toEqual({ exists: false });
    const [log] = await auditOf(t, 1, 'service.whitelist_save');
    expect(log?.userId).toBe(ID.zhang);

    const forOther = await t.call(whitelistSaveCall.path, { userPhone: ADMIN }, c.zhang);
    expect([forOther.code, forOther.msg]).toEqual([CODE.BAD_REQUEST, '只能为本人开通，手机号须为当前登录的手机号']);
    expectBadInput(
      await t.call(whitelistSaveCall.path, { userPhone: '123' }, c.admin),
      '用户手机号',
      '请输入正确的手机号',
    );
    expectBadInput(await t.call(whitelistSaveCall.path, { orderNo: 'x'.repeat(41) }, c.admin), '订单号');
    expect((await t.call(whitelistCheckCall.path, {}, c.admin)).data).toEqual({ exists: false });
    expectSignedOut(await t.call(whitelistCheckCall.path, {}));
  });
});
