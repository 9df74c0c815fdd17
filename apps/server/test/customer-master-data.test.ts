import {
  bureauDiffCall,
  CODE,
  clearAgencyCacheCall,
  customerListCall,
  DEFAULT_PRINT_SETTINGS,
  defKpTypeCall,
  importProgressCall,
  jglxBatchCall,
  jglxOneCall,
  kpfsBatchCall,
  kpfsOneCall,
  kpfsQueryCall,
  MASTER_FILES,
  MASTER_MSG,
  noteGetStagingCall,
  noteSaveCall,
  noteStagingCall,
  printSettingsGetCall,
  printSettingsSaveCall,
  profileSaveCall,
  SHUIJU_PWD_COLUMNS,
  takeBureauCall,
  taxpayerInfoCall,
  updateMemoryCall,
} from '@dzy/shared';
import { makeTaxpayer, SCENARIOS, startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog, enterpriseProfiles, enterpriseTaxData } from '../src/db/schema/index.js';
import { decrypt } from '../src/lib/crypto.js';
import { DEMO_DIFFERENCES } from '../src/modules/customer/master-data.seed.js';
import {
  ADMIN,
  create,
  download,
  ENT,
  LI,
  newUscc,
  OTHER_ADMIN,
  readSheet,
  stored,
  upload,
  withDefaultPerms,
  xlsx,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * The client book against the bureau's registration (issue 19 point 1) and the rest of the client
 * book's calls (point 2): each call's permission, another agency's id, bad input; the difference found
 * when tax data is collected, taking the bureau's values, the export; 税局 passwords; drafts.
 */

let sim: TaxSim;
let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  sim = await startTaxSim();
  process.env.TAX_BUREAU_URL = sim.url;
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sim?.close();
  delete process.env.TAX_BUREAU_URL;
});

const CREDENTIALS = {
  login_type: '0',
  xdzswj_dlzh: '13312345678',
  xdzswj_pass: 'Old@2025pw',
  xdzswj_sfbm: '1',
} as const;

interface Diff {
  checkedAt: string | null;
  needUpdate: boolean;
  diffs: { field: string; label: string; book: string; bureau: string; bookText: string; bureauText: string }[];
}

/** A client whose book name differs from the name the bureau registered. */
async function renamedClient(bookName: string, bureauName: string, extra: Record<string, string> = {}) {
  const qysh = newUscc();
  sim.setScenario(qysh, 'clean', bureauName);
  const r = await create(t, admin, { qysh, qymc: bookName, credentials: CREDENTIALS, ...extra });
  if (r.code !== CODE.OK) throw new Error(`create: ${r.code} ${r.msg}`);
  return { id: r.data.id, qysh };
}

const auditsOf = (action: string) =>
  inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.agencyId, 1), eq(auditLog.action, action))),
  );

describe('需更新: the book against the bureau', () => {
  it('every demo client agrees with the simulated bureau except the deliberate differences', async () => {
    const rows = await t.ownerQuery<{
      agency: string;
      qysh: string;
      qymc: string;
      qyxz: string;
      ssqx: string;
      fddbrxm: string | null;
      tax_types: string | null;
    }>(
      `select o.name as agency, e.qysh, e.qymc, e.qyxz, e.ssqx, p.fddbrxm, p.tax_types
         from enterprises e join organisations o on o.id = e.agency_id
         left join enterprise_profiles p on p.agency_id = e.agency_id and p.enterprise_id = e.id
        where o.name in ('演示财税代理有限公司', '鸿信财务咨询有限公司') and e.qysh <> '' order by e.id`,
    );
    expect(rows.filter((e) => e.agency === '演示财税代理有限公司').length).toBe(58);
    expect(rows.filter((e) => e.agency === '鸿信财务咨询有限公司').length).toBe(20);
    const differ: { qysh: string; fields: string[] }[] = [];
    for (const e of rows) {
      // The bureau's registration as a login that sends the book's name meets it; one that sends no
      // name meets the same taxpayer apart from the name (the simulator draws nothing else differently).
      const b = makeTaxpayer(e.qysh, SCENARIOS.clean, e.qymc).info;
      const { qymc: _named, ...rest } = b;
      const { qymc: _generated, ...unnamed } = makeTaxpayer(e.qysh, SCENARIOS.clean).info;
      expect(unnamed).toEqual(rest);
      // The same rules as bureau_diff_compute: a blank legal representative or tax types was never recorded.
      expect(e.tax_types ?? '').toBe('');
      const fields = [
        ...(b.qymc !== e.qymc ? ['qymc'] : []),
        ...(b.qyxz !== e.qyxz ? ['qyxz'] : []),
        ...(b.swjgdm.slice(1, 7) !== e.ssqx ? ['region'] : []),
        ...(e.fddbrxm && e.fddbrxm !== b.fddbrxm ? ['fddbrxm'] : []),
      ];
      if (fields.length > 0) differ.push({ qysh: e.qysh, fields });
    }
    const byQysh = (a: { qysh: string }, b: { qysh: string }) => a.qysh.localeCompare(b.qysh);
    expect(differ.sort(byQysh)).toEqual(
      DEMO_DIFFERENCES.map((d) => ({ qysh: d.qysh, fields: [...d.fields] })).sort(byQysh),
    );
    const showcase = rows.find((e) => e.qysh === DEMO_DIFFERENCES[0].qysh);
    expect(showcase?.qymc).toBe('上海丰益企业管理咨询有限公司');
    expect(makeTaxpayer(DEMO_DIFFERENCES[0].qysh, SCENARIOS.clean, showcase?.qymc).info.qymc).toBe(
      '上海和诚食品有限公司',
    );
  });

  it('a live query of the demo client with the old legal representative lists that difference alone', async () => {
    const [e] = await t.ownerQuery<{ id: number; qysh: string; qymc: string }>(
      `select e.id, e.qysh, e.qymc from enterprises e join organisations o on o.id = e.agency_id
        where o.name = '演示财税代理有限公司' and e.qysh = $1`,
      [DEMO_DIFFERENCES[1].qysh],
    );
    if (!e) throw new Error('demo client missing');
    // Met with the book's name, as a login that sends it (the helper's) registers it.
    sim.setScenario(e.qysh, 'clean', e.qymc);
    const live = await t.call(taxpayerInfoCall.path, { aeiId: e.id, live: true }, admin);
    expect(live.code, live.msg).toBe(CODE.OK);
    const d = await t.call<Diff>(bureauDiffCall.path, { id: e.id }, admin);
    expect(d.data.needUpdate).toBe(true);
    expect(d.data.diffs.map((x) => [x.field, x.book, x.bureau])).toEqual([['fddbrxm', '陈志明', '彭辉']]);
  });

  it('a live 纳税人信息 query marks the client, lists the difference, and taking the bureau values clears it', async () => {
    const c = await renamedClient('上海丰益企业管理咨询有限公司', '上海和诚食品有限公司');
    const before = await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin);
    expect(before.code).toBe(CODE.OK);
    expect(before.data).toMatchObject({ checkedAt: null, needUpdate: false, diffs: [] });

    const live = await t.call<{ info: { qymc: string; qyxz: string } }>(
      taxpayerInfoCall.path,
      { aeiId: c.id, live: true },
      admin,
    );
    expect(live.code).toBe(CODE.OK);
    expect(live.data.info.qymc).toBe('上海和诚食品有限公司');

    const after = await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin);
    expect(after.data.needUpdate).toBe(true);
    expect(after.data.checkedAt).not.toBeNull();
    expect(after.data.diffs[0]).toMatchObject({
      field: 'qymc',
      label: '企业名称',
      book: '上海丰益企业管理咨询有限公司',
      bureau: '上海和诚食品有限公司',
    });
    // The list shows the tag and the 需更新 filter finds it.
    const listed = await t.call<{ list: { id: number; needUpdate: boolean }[] }>(
      customerListCall.path,
      { pageSize: 100, needUpdate: '1' },
      admin,
    );
    expect(listed.data.list.map((e) => e.id)).toContain(c.id);
    expect(listed.data.list.every((e) => e.needUpdate)).toBe(true);

    // 李晓梅 cannot see the admin's client: refused, nothing changes.
    const scoped = await t.call(takeBureauCall.path, { aeiIds: [c.id] }, li);
    expect(scoped.code).toBe(CODE.NOT_FOUND);
    expect((await stored(t, 1, c.id))?.qymc).toBe('上海丰益企业管理咨询有限公司');

    const took = await t.call<{ updated: number; unchanged: number }>(takeBureauCall.path, { aeiIds: [c.id] }, admin);
    expect(took.code).toBe(CODE.OK);
    expect(took.data).toEqual({ updated: 1, unchanged: 0 });
    const row = await stored(t, 1, c.id);
    expect(row?.qymc).toBe('上海和诚食品有限公司');
    expect(row?.qyxz).toBe(live.data.info.qyxz);
    const cleared = await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin);
    expect(cleared.data).toMatchObject({ needUpdate: false, diffs: [] });
    const audits = await auditsOf('customer.take_bureau');
    expect(audits.some((a) => a.target === `enterprise:${c.id}`)).toBe(true);
    // Nothing left to take.
    const again = await t.call(takeBureauCall.path, { aeiIds: [c.id] }, admin);
    expect(again.code).toBe(CODE.BAD_REQUEST);
    expect(again.msg).toBe(MASTER_MSG.nothingToTake);
  });

  it('a batch check stores the registration; kind, region, legal representative and tax types are compared', async () => {
    const c = await renamedClient('比对测试有限公司', '比对测试有限公司', {
      sssf: '330000',
      ssds: '330100',
      ssqx: '330106',
    });
    await t.call(profileSaveCall.path, { id: c.id, fddbrxm: '王五', taxTypes: '增值税' }, admin);
    // What the batch check keeps of the bureau (declare/check.repo.ts writes enterprise_tax_data).
    await inScope(t.db.app, { agencyId: 1, userId: 1, kjgcId: null }, (tx) =>
      tx.insert(enterpriseTaxData).values({
        agencyId: 1,
        enterpriseId: c.id,
        collected: {
          nsrjcxx: {
            qysh: c.qysh,
            qymc: '比对测试有限公司',
            djxh: '1',
            swjgdm: '13101150000',
            swjgmc: '国家税务总局上海市浦东新区税务局',
            nsrzt: '正常',
            qyxz: '0',
            fddbrxm: '赵六',
            zcdz: '',
            djrq: '2020-01-01',
          },
          sfzhd: [
            { zsxmDm: '10101', zsxmMc: '增值税', nsqx: '06', nsqxMc: '月' },
            { zsxmDm: '10104', zsxmMc: '企业所得税', nsqx: '08', nsqxMc: '季' },
          ],
          wddb: [],
          wsbList: [],
          qsxxList: [],
          cxsysbList: [],
        } as never,
      }),
    );
    const d = await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin);
    expect(d.data.needUpdate).toBe(true);
    const byField = Object.fromEntries(d.data.diffs.map((x) => [x.field, x]));
    expect(byField.qymc).toBeUndefined();
    expect(byField.qyxz).toMatchObject({ book: '1', bureau: '0', bookText: '小规模纳税人', bureauText: '一般纳税人' });
    expect(byField.region).toMatchObject({ book: '330106', bureau: '310115' });
    expect(byField.region?.bureauText).toContain('浦东新区');
    expect(byField.fddbrxm).toMatchObject({ book: '王五', bureau: '赵六' });
    expect(byField.taxTypes).toMatchObject({ book: '增值税', bureau: '企业所得税、增值税' });

    // Export: one row per difference, the values in words.
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${MASTER_FILES.needUpdateExport}`,
      headers: { 'content-type': 'application/json', cookie: admin },
      payload: JSON.stringify({ keyword: '比对测试' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('.xlsx');
    const sheet = await readSheet(res.rawPayload);
    expect(sheet[0]).toEqual(['企业名称', '企业税号', '差异项', '客户资料', '税局登记', '比对时间']);
    const rows = sheet.slice(1).filter((r) => r[1] === c.qysh);
    expect(rows.map((r) => r[2])).toEqual(['纳税人类型', '所属地区', '法定代表人', '登记税种']);
    expect(rows[0]?.slice(3, 5)).toEqual(['小规模纳税人', '一般纳税人']);

    // Changing the book to agree clears that difference at once.
    await t.call(profileSaveCall.path, { id: c.id, fddbrxm: '赵六', taxTypes: '' }, admin);
    const d2 = await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin);
    expect(d2.data.diffs.map((x) => x.field)).toEqual(['qyxz', 'region']);

    const took = await t.call(takeBureauCall.path, { aeiIds: [c.id] }, admin);
    expect(took.code).toBe(CODE.OK);
    const row = await stored(t, 1, c.id);
    expect([row?.qyxz, row?.sssf, row?.ssds, row?.ssqx]).toEqual(['0', '310000', '310100', '310115']);
    expect((await t.call<Diff>(bureauDiffCall.path, { id: c.id }, admin)).data.needUpdate).toBe(false);
  });

  it('refuses another agency, a member without the permission, and bad input', async () => {
    expect((await t.call(bureauDiffCall.path, { id: ENT.otherAgency }, admin)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(takeBureauCall.path, { aeiIds: [ENT.adminOwn, ENT.otherAgency] }, admin)).code).toBe(
      CODE.NOT_FOUND,
    );
    expect(
      (await t.call(profileSaveCall.path, { id: ENT.adminOwn, fddbrxm: '甲'.repeat(31), taxTypes: '' }, admin)).msg,
    ).toBe(`法定代表人：${MASTER_MSG.fddbrxmTooLong}`);
    const empty = await t.call(takeBureauCall.path, { aeiIds: [] }, admin);
    expect(empty.code).toBe(CODE.BAD_REQUEST);
    expect(empty.msg).toBe('企业：请选择客户');
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      const r = await t.call(takeBureauCall.path, { aeiIds: [ENT.zhangOwn] }, zhang);
      expect(r.code).toBe(CODE.NO_PERMISSION);
      const ex = await t.app.inject({
        method: 'POST',
        url: `/api/${MASTER_FILES.needUpdateExport}`,
        headers: { 'content-type': 'application/json', cookie: zhang },
        payload: '{}',
      });
      expect(ex.json().code).toBe(CODE.NO_PERMISSION);
    });
    // The other agency's export holds none of agency 1's clients.
    const theirs = await download(t, `/api/${MASTER_FILES.needUpdateExport}`, other);
    expect(theirs.status).toBe(200);
    expect((await readSheet(theirs.body)).length).toBe(1);
  });
});

describe('税局 passwords', () => {
  it('template, import (encrypted), failure file; refused without the permission or for another agency', async () => {
    const tpl = await download(t, `/api/${MASTER_FILES.shuiJuTemplate}`, admin);
    expect(tpl.status).toBe(200);
    expect((await readSheet(tpl.body))[0]).toEqual([...SHUIJU_PWD_COLUMNS]);

    const c = await create(t, admin, { qysh: newUscc(), qymc: '税局密码导入测试有限公司' });
    const own = (await stored(t, 1, c.data.id))?.qysh ?? '';
    const theirs = (await stored(t, 2, ENT.otherAgency))?.qysh ?? '';
    const file = await xlsx(SHUIJU_PWD_COLUMNS, [
      [own, '税局密码导入测试有限公司', '办税员', '13900001111', 'Sj@2026pw'],
      [theirs, '', '', '13900002222', 'Sj@2026pw'],
      ['', '', '', 'x', 'y'],
      [own, '', '', '13900001111', 'Sj@2026pw'],
      ['91330106MA2H3C0X1X', '', '局长', 'a', 'b'],
    ]);
    const started = await upload<{ jobId: number; total: number }>(t, MASTER_FILES.shuiJuUpload, admin, {
      name: '税局密码.xlsx',
      data: file,
    });
    expect(started.code).toBe(CODE.OK);
    expect(started.data.total).toBe(5);
    // A job of the import queue, followed as the client import is.
    let r = { data: { state: '', result: null as { successNum: number; failNum: number; redisKey: string } | null } };
    for (let i = 0; i < 200 && r.data.state !== 'done' && r.data.state !== 'failed'; i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await t.call(importProgressCall.path, { jobId: started.data.jobId }, admin);
    }
    expect(r.data.state).toBe('done');
    const result = r.data.result ?? { successNum: -1, failNum: -1, redisKey: '' };
    expect([result.successNum, result.failNum]).toEqual([1, 4]);
    const row = await stored(t, 1, c.data.id);
    expect(row?.xdzswjDlzh).toBe('13900001111');
    expect(row?.xdzswjPassEnc).not.toContain('Sj@2026pw');
    expect(decrypt(t.config.secretKey, row?.xdzswjPassEnc ?? '')).toBe('Sj@2026pw');
    expect(row?.xdzswjSfbm).toBe('1');

    const fail = await download(t, `/api/${MASTER_FILES.shuiJuFailList}?redisKey=${result.redisKey}`, admin);
    expect(fail.status).toBe(200);
    const failRows = await readSheet(fail.body);
    expect(failRows.map((x) => x[2]).slice(1)).toEqual([
      '未找到该税号的客户，或您无权访问',
      '请填写企业税号',
      '文件中该税号重复',
      '未找到该税号的客户，或您无权访问',
    ]);
    expect(JSON.stringify(failRows)).not.toContain('Sj@2026pw');
    // Another agency's administrator cannot fetch it by the key.
    const stolen = await download(t, `/api/${MASTER_FILES.shuiJuFailList}?redisKey=${result.redisKey}`, other);
    expect(stolen.json().code).toBe(CODE.NOT_FOUND);
    expect(stolen.json().msg).toBe('失败记录不存在或已过期');
    // Not an xlsx: refused in Chinese.
    const bad = await upload(t, MASTER_FILES.shuiJuUpload, admin, { name: 'a.txt', data: Buffer.from('hello') });
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toMatch(/[\u4e00-\u9fa5]/);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await upload(t, MASTER_FILES.shuiJuUpload, zhang, { name: 'a.xlsx', data: file })).code).toBe(
        CODE.NO_PERMISSION,
      );
      expect((await download(t, `/api/${MASTER_FILES.shuiJuTemplate}`, zhang)).json().code).toBe(CODE.NO_PERMISSION);
    });
  });
});

describe('institution type and invoicing method', () => {
  it('sets jglx for one or a batch, refused for another agency and for bad input', async () => {
    expect((await t.call(jglxOneCall.path, { id: ENT.adminOwn, jglx: '2' }, admin)).code).toBe(CODE.OK);
    const batch = await t.call<{ updated: number }>(
      jglxBatchCall.path,
      { aeiIds: [ENT.liOwn, ENT.zhangOwn], jglx: '3' },
      admin,
    );
    expect(batch.data.updated).toBe(2);
    const d = await t.call<{ profile: { jglx: string } }>(bureauDiffCall.path, { id: ENT.liOwn }, admin);
    expect(d.data.profile.jglx).toBe('3');
    const bad = await t.call(jglxOneCall.path, { id: ENT.adminOwn, jglx: '8' }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toBe(`机构类型：${MASTER_MSG.jglxInvalid}`);
    expect((await t.call(jglxBatchCall.path, { aeiIds: [ENT.otherAgency], jglx: '1' }, admin)).code).toBe(
      CODE.NOT_FOUND,
    );
    expect((await t.call(jglxOneCall.path, { id: ENT.adminOwn, jglx: '1' }, other)).code).toBe(CODE.NOT_FOUND);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(jglxOneCall.path, { id: ENT.zhangOwn, jglx: '1' }, zhang)).code).toBe(CODE.NO_PERMISSION);
    });
  });

  it("kpfs: the client's own, else the agency default; what the invoices module reads", async () => {
    expect((await t.call(defKpTypeCall.path, { kpfs: '1' }, admin)).code).toBe(CODE.OK);
    expect((await t.call(kpfsOneCall.path, { id: ENT.adminOwn, kpfs: '3' }, admin)).code).toBe(CODE.OK);
    expect((await t.call(kpfsBatchCall.path, { aeiIds: [ENT.liOwn], kpfs: '' }, admin)).code).toBe(CODE.OK);
    const q = await t.call<{
      defKpfs: string;
      list: { id: number; kpfs: string; effective: string; effectiveLabel: string }[];
    }>(kpfsQueryCall.path, { aeiIds: [ENT.adminOwn, ENT.liOwn] }, admin);
    expect(q.data.defKpfs).toBe('1');
    expect(q.data.list.map((x) => [x.id, x.kpfs, x.effective])).toEqual([
      [ENT.adminOwn, '3', '3'],
      [ENT.liOwn, '', '1'],
    ]);
    expect(q.data.list[0]?.effectiveLabel).toBe('税务UKey');
    // The other agency has its own default and cannot read or set agency 1's clients.
    expect((await t.call(kpfsQueryCall.path, { aeiIds: [ENT.adminOwn] }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(kpfsOneCall.path, { id: ENT.adminOwn, kpfs: '0' }, other)).code).toBe(CODE.NOT_FOUND);
    const bad = await t.call(defKpTypeCall.path, { kpfs: '7' }, admin);
    expect(bad.msg).toBe(`开票方式：${MASTER_MSG.kpfsInvalid}`);
    const profile = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(enterpriseProfiles).where(eq(enterpriseProfiles.enterpriseId, ENT.adminOwn)),
    );
    expect(profile[0]?.kpfs).toBe('3');
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await t.call(defKpTypeCall.path, { kpfs: '1' }, zhang)).code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(kpfsBatchCall.path, { aeiIds: [ENT.zhangOwn], kpfs: '1' }, zhang)).code).toBe(
        CODE.NO_PERMISSION,
      );
    });
  });
});

describe('note drafts, clearing the cache, print settings', () => {
  it('a half-written note survives a closed dialog, is the writer’s own, and ends when the note is saved', async () => {
    const s = await t.call<{ savedAt: string }>(
      noteStagingCall.path,
      { enterpriseId: ENT.adminOwn, content: '下周一回访' },
      admin,
    );
    expect(s.code).toBe(CODE.OK);
    const got = await t.call<{ content: string }>(noteGetStagingCall.path, { enterpriseId: ENT.adminOwn }, admin);
    expect(got.data.content).toBe('下周一回访');
    expect((await t.call(noteGetStagingCall.path, { enterpriseId: ENT.adminOwn }, other)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(noteStagingCall.path, { enterpriseId: ENT.adminOwn, content: 'x' }, li)).code).toBe(
      CODE.NOT_FOUND,
    );
    const long = await t.call(noteStagingCall.path, { enterpriseId: ENT.adminOwn, content: '字'.repeat(501) }, admin);
    expect(long.msg).toBe(`内容：${MASTER_MSG.draftTooLong}`);
    expect((await t.call(noteSaveCall.path, { enterpriseId: ENT.adminOwn, content: '下周一回访' }, admin)).code).toBe(
      CODE.OK,
    );
    const after = await t.call<{ content: string; savedAt: string | null }>(
      noteGetStagingCall.path,
      { enterpriseId: ENT.adminOwn },
      admin,
    );
    expect(after.data).toEqual({ content: '', savedAt: null });
    await withDefaultPerms(t, [], async () => {
      expect((await t.call(noteStagingCall.path, { enterpriseId: ENT.zhangOwn, content: 'x' }, zhang)).code).toBe(
        CODE.NO_PERMISSION,
      );
    });
  });

  it('clearAgencyCache drops the caller’s remembered queries and drafts only', async () => {
    await t.call(updateMemoryCall.path, { pageKey: 'customer', query: { keyword: '杭州' } }, admin);
    await t.call(noteStagingCall.path, { enterpriseId: ENT.adminOwn, content: '草稿' }, admin);
    await t.call(noteStagingCall.path, { enterpriseId: ENT.liOwn, content: '李的草稿' }, li);
    const r = await t.call<{ cleared: number }>(clearAgencyCacheCall.path, {}, admin);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.cleared).toBeGreaterThanOrEqual(1);
    expect(
      (await t.call<{ content: string }>(noteGetStagingCall.path, { enterpriseId: ENT.adminOwn }, admin)).data.content,
    ).toBe('');
    expect(
      (await t.call<{ content: string }>(noteGetStagingCall.path, { enterpriseId: ENT.liOwn }, li)).data.content,
    ).toBe('李的草稿');
    expect((await t.call(clearAgencyCacheCall.path, { x: 1 }, admin)).code).toBe(CODE.BAD_REQUEST);
  });

  it('print settings: defaults, saved per agency, checked, the other agency unaffected', async () => {
    expect((await t.call(printSettingsGetCall.path, {}, admin)).data).toEqual(DEFAULT_PRINT_SETTINGS);
    const next = { ...DEFAULT_PRINT_SETTINGS, paper: 'A5', orientation: 'landscape', copies: 2 };
    expect((await t.call(printSettingsSaveCall.path, next, admin)).code).toBe(CODE.OK);
    expect((await t.call(printSettingsGetCall.path, {}, li)).data).toEqual(next);
    expect((await t.call(printSettingsGetCall.path, {}, other)).data).toEqual(DEFAULT_PRINT_SETTINGS);
    const bad = await t.call(printSettingsSaveCall.path, { ...next, marginMm: 99 }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toBe('页边距：须为0到30毫米的整数');
    // Agency-wide: a member who may edit clients still may not change them (agency:info:edit).
    await withDefaultPerms(t, ['customer:list:view', 'customer:edit'], async () => {
      const refused = await t.call(printSettingsSaveCall.path, { ...next, copies: 5 }, zhang);
      expect(refused.code).toBe(CODE.NO_PERMISSION);
      expect((await t.call(printSettingsGetCall.path, {}, zhang)).data).toEqual(next);
    });
  });
});
