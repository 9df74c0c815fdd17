import { deflateRawSync } from 'node:zlib';
import {
  CODE,
  CUSTOMER_FILES,
  customerDetailCall,
  deleteAttachmentCall,
  IMPORT_COLUMNS,
  IMPORT_MSG,
  type ImportResult,
  importProgressCall,
  PWD_IMPORT_COLUMNS,
  revealCredentialCall,
} from '@dzy/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog } from '../src/db/schema/index.js';
import {
  ADMIN,
  create,
  detail,
  download,
  ENT,
  grantStaffEverything,
  list,
  newUscc,
  OTHER_ADMIN,
  readSheet,
  upload,
  withDefaultPerms,
  xlsx,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { zipBomb } from './zip-helpers.js';

/** A reveal asks again who the caller is and why (issue 12). */
const REVEAL = { reason: '核对导入结果', password: 'Demo@2026' };

let t: TestApp;
let admin: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  // Scope is what these tests are about: the staff hold the permissions an administrator may grant.
  await grantStaffEverything(t);
  [admin, zhang, other] = await Promise.all([t.login(ADMIN), t.login(ZHANG), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

type Progress = { state: string; total: number; done: number; result: ImportResult | null; error: string | null };

async function waitForJob(cookie: string, jobId: number): Promise<Progress> {
  for (let i = 0; i < 200; i++) {
    const r = await t.call<Progress>(importProgressCall.path, { jobId }, cookie);
    if (r.code !== CODE.OK) throw new Error(`progress ${r.code} ${r.msg}`);
    if (r.data.state === 'done' || r.data.state === 'failed') return r.data;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('import did not finish');
}

const row = (over: Partial<Record<(typeof IMPORT_COLUMNS)[number], string>>) =>
  IMPORT_COLUMNS.map((c) => over[c] ?? '');

/** A zip holding one small file, not a workbook. */
function plainZip(): Buffer {
  const name = Buffer.from('hello.txt');
  const data = deflateRawSync(Buffer.from('hello'));
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(5, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, data]);
}

describe('import (importAgencyEnterprise, a job)', () => {
  it('the template has the columns', async () => {
    const r = await download(t, `/api/${CUSTOMER_FILES.importTemplate}`, admin);
    expect(r.status).toBe(200);
    expect(r.headers['content-disposition']).toContain(encodeURIComponent('客户导入模板.xlsx'));
    const rows = await readSheet(r.body);
    expect(rows[0]).toEqual([...IMPORT_COLUMNS]);
    expect((await download(t, `/api/${CUSTOMER_FILES.importTemplate}`)).status).toBe(403);
  });

  it('imports the good rows, reports the bad ones with a reason each, and keeps the failure file', async () => {
    const existing = await detail(t, admin, ENT.adminOwn);
    const good1 = newUscc();
    const good2 = newUscc();
    const file = await xlsx(IMPORT_COLUMNS, [
      row({
        '企业名称*': '导入一号科技有限公司',
        '企业税号*': ` ${good1} `,
        企业性质: '一般纳税人',
        所属省份: '浙江省',
        所属地市: '杭州市',
        所属区县: '西湖区',
        客户等级: 'A类客户',
        标签: '重点客户，新设立',
        负责人手机号: '13800000002',
        联系人: '王会计',
        联系人手机: '13912340000',
      }),
      row({ '企业名称*': '导入二号贸易有限公司', '企业税号*': good2 }),
      row({ '企业名称*': '', '企业税号*': newUscc() }),
      row({ '企业名称*': '税号太短有限公司', '企业税号*': '123' }),
      row({ '企业名称*': '重复税号有限公司', '企业税号*': good1 }),
      row({ '企业名称*': '已在册有限公司', '企业税号*': existing.qysh }),
      row({ '企业名称*': '地区错误有限公司', '企业税号*': newUscc(), 所属省份: '浙江省', 所属地市: '北京市' }),
      row({ '企业名称*': '等级错误有限公司', '企业税号*': newUscc(), 客户等级: '不存在的等级' }),
      row({ '企业名称*': '负责人错误有限公司', '企业税号*': newUscc(), 负责人手机号: '13999999999' }),
      row({ '企业名称*': '=HYPERLINK("http://x","点我")', '企业税号*': '1' }),
    ]);
    const r = await upload<{ jobId: number; total: number }>(t, CUSTOMER_FILES.importUpload, admin, {
      name: '客户.xlsx',
      data: file,
    });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.total).toBe(10);
    const done = await waitForJob(admin, r.data.jobId);
    expect(done.state).toBe('done');
    expect(done.result).toMatchObject({ successNum: 2, failNum: 8, unExport: 0 });
    const found = await list(t, admin, { keyword: '导入一号' });
    expect(found.total).toBe(1);
    const e = found.list[0];
    expect(e).toMatchObject({
      qyxz: '0',
      regionName: '浙江省 杭州市 西湖区',
      gradeName: 'A类客户',
      allocateUserName: '张伟',
    });
    expect(e?.labels.map((l) => l.name).sort()).toEqual(['新设立', '重点客户'].sort());
    expect(e?.contactName).toBe('王会计');

    const fail = await download(t, `/api/${CUSTOMER_FILES.importFailList}?redisKey=${done.result?.redisKey}`, admin);
    expect(fail.status).toBe(200);
    const sheet = await readSheet(fail.body);
    expect(sheet[0]?.at(-1)).toBe('失败原因');
    const reasons = sheet.slice(1).map((r) => r.at(-1));
    expect(reasons).toEqual([
      '请填写企业名称',
      '税号为6-20位，请输入符合规范的税号',
      '与第2行的税号重复',
      `该税号的企业已存在：${existing.qymc}`,
      '所属地区有误：请填写完整且正确的省、市、区县名称',
      '客户等级不存在：不存在的等级',
      '负责人手机号不是本机构成员',
      '税号为6-20位，请输入符合规范的税号',
    ]);
    // The formula-like name is written back neutralised.
    expect(sheet.at(-1)?.[1]).toBe('\'=HYPERLINK("http://x","点我")');
    // Another agency cannot fetch it, nor can anyone without a session.
    expect(
      (await download(t, `/api/${CUSTOMER_FILES.importFailList}?redisKey=${done.result?.redisKey}`, other)).status,
    ).toBe(404);
    expect((await download(t, `/api/${CUSTOMER_FILES.importFailList}?redisKey=${done.result?.redisKey}`)).status).toBe(
      403,
    );
    // Another user of the agency does not see the job.
    expect((await t.call(importProgressCall.path, { jobId: r.data.jobId }, zhang)).status).toBe(404);
    expect((await t.call(importProgressCall.path, { jobId: r.data.jobId }, other)).status).toBe(404);
    const audits = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.action, 'customer.import')),
    );
    expect(audits[0]?.detail).toMatchObject({ successNum: 2, failNum: 8 });
  });

  it('rows past the licensed number are not imported (未导入)', async () => {
    const before = (await list(t, admin, { pageSize: 20 })).total;
    const { sql } = await import('drizzle-orm');
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx.execute(sql`update organisations set licence_customers = ${before + 1} where id = 1`),
    );
    try {
      const file = await xlsx(IMPORT_COLUMNS, [
        row({ '企业名称*': '授权内有限公司', '企业税号*': newUscc() }),
        row({ '企业名称*': '超授权一有限公司', '企业税号*': newUscc() }),
        row({ '企业名称*': '超授权二有限公司', '企业税号*': newUscc() }),
      ]);
      const r = await upload<{ jobId: number }>(t, CUSTOMER_FILES.importUpload, admin, { name: 'a.xlsx', data: file });
      const done = await waitForJob(admin, r.data.jobId);
      expect(done.result).toMatchObject({ successNum: 1, failNum: 0, unExport: 2 });
      const sheet = await readSheet(
        (await download(t, `/api/${CUSTOMER_FILES.importFailList}?redisKey=${done.result?.redisKey}`, admin)).body,
      );
      expect(sheet[1]?.at(-1)).toBe('超出授权客户数，未导入');
    } finally {
      await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
        tx.execute(sql`update organisations set licence_customers = 200 where id = 1`),
      );
    }
  });

  it('refuses a file that is not a real .xlsx, too large, too long, or with a changed header, and changes nothing', async () => {
    const before = (await list(t, admin, { pageSize: 20 })).total;
    const cases: [{ name: string; data: Buffer }, number, string][] = [
      [{ name: 'a.xlsx', data: Buffer.from('企业名称,企业税号\n甲,123456') }, 400, IMPORT_MSG.badType],
      [{ name: 'a.csv', data: await xlsx(IMPORT_COLUMNS, [row({ '企业名称*': '甲' })]) }, 400, IMPORT_MSG.badType],
      [{ name: 'a.xlsx', data: plainZip() }, 400, IMPORT_MSG.badType],
      [{ name: 'a.xlsx', data: Buffer.concat([plainZip(), Buffer.alloc(5 * 1024 * 1024)]) }, 413, IMPORT_MSG.tooLarge],
      [{ name: 'a.xlsx', data: await xlsx(['名称', '税号'], [['甲', '123456']]) }, 400, IMPORT_MSG.header],
      [{ name: 'a.xlsx', data: await xlsx(IMPORT_COLUMNS, []) }, 400, IMPORT_MSG.empty],
      [{ name: 'a.xlsx', data: zipBomb() }, 400, IMPORT_MSG.tooBig],
    ];
    for (const [file, status, msg] of cases) {
      const r = await upload(t, CUSTOMER_FILES.importUpload, admin, file);
      expect(r.status, msg).toBe(status);
      expect(r.msg).toBe(msg);
    }
    const many = await xlsx(
      IMPORT_COLUMNS,
      Array.from({ length: 10_001 }, (_, i) =>
        row({ '企业名称*': `批量${i}有限公司`, '企业税号*': `ABC${100000 + i}` }),
      ),
    );
    const tooMany = await upload(t, CUSTOMER_FILES.importUpload, admin, { name: 'many.xlsx', data: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.msg).toBe(IMPORT_MSG.tooMany);
    const none = await upload(t, CUSTOMER_FILES.importUpload, admin, null);
    expect(none.msg).toBe(IMPORT_MSG.noFile);
    expect((await list(t, admin, { pageSize: 20 })).total).toBe(before);
  });

  it('needs a session and the permission', async () => {
    const file = { name: 'a.xlsx', data: await xlsx(IMPORT_COLUMNS, [row({ '企业名称*': '甲' })]) };
    expect((await upload(t, CUSTOMER_FILES.importUpload, undefined, file)).status).toBe(403);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await upload(t, CUSTOMER_FILES.importUpload, zhang, file)).status).toBe(460);
      expect((await t.call(importProgressCall.path, { jobId: 1 }, zhang)).status).toBe(460);
    });
  });
});

describe('credentials import (importPassword)', () => {
  it('sets credentials of enterprises in scope by tax number and lists the failures', async () => {
    const mine = await detail(t, zhang, ENT.zhangOwn);
    const notMine = await detail(t, admin, ENT.liOwn);
    // The demo clients hold e-tax credentials (customer.seed.ts): the one out of scope must keep its own.
    const notMineBefore = await t.call<{ xdzswj_pass: string }>(
      revealCredentialCall.path,
      { id: ENT.liOwn, ...REVEAL },
      admin,
    );
    const cells = (over: Partial<Record<(typeof PWD_IMPORT_COLUMNS)[number], string>>) =>
      PWD_IMPORT_COLUMNS.map((c) => over[c] ?? '');
    const file = await xlsx(PWD_IMPORT_COLUMNS, [
      cells({
        '企业税号*': mine.qysh,
        电子税务局账号: '13812345678',
        电子税务局密码: 'Imp#Pass01',
        登录身份: '办税员',
        个税登录方式: '1',
        个税申报密码: '112233',
      }),
      cells({ '企业税号*': notMine.qysh, 电子税务局密码: 'x' }),
      cells({ '企业税号*': 'NOSUCH123456', 电子税务局密码: 'x' }),
      cells({ '企业税号*': mine.qysh, 电子税务局密码: 'again' }),
      cells({ '企业税号*': '', 电子税务局密码: 'x' }),
    ]);
    const started = await upload<{ jobId: number; total: number }>(t, CUSTOMER_FILES.pwdUpload, zhang, {
      name: '账号密码.xlsx',
      data: file,
    });
    expect(started.code).toBe(CODE.OK);
    expect(started.data.total).toBe(5);
    // A job of the import queue: only the importer follows it.
    expect((await t.call(importProgressCall.path, { jobId: started.data.jobId }, admin)).status).toBe(404);
    const done = await waitForJob(zhang, started.data.jobId);
    expect(done.state).toBe('done');
    const r = { data: done.result ?? { successNum: -1, failNum: -1, unExport: -1, redisKey: '' } };
    expect(r.data).toMatchObject({ successNum: 1, failNum: 4, unExport: 0 });
    const shown = await t.call<{ xdzswj_pass: string; xdzswj_sfbm: string; dlfs: string; report_password: string }>(
      revealCredentialCall.path,
      { id: ENT.zhangOwn, ...REVEAL },
      zhang,
    );
    expect(shown.data).toMatchObject({
      xdzswj_pass: 'Imp#Pass01',
      xdzswj_sfbm: '1',
      dlfs: '1',
      report_password: '112233',
    });
    const notMineAfter = await t.call<{ xdzswj_pass: string }>(
      revealCredentialCall.path,
      { id: ENT.liOwn, ...REVEAL },
      admin,
    );
    expect(notMineAfter.data.xdzswj_pass).toBe(notMineBefore.data.xdzswj_pass);
    expect(notMineAfter.data.xdzswj_pass).not.toBe('x');
    const fail = await download(t, `/api/${CUSTOMER_FILES.pwdFailList}?redisKey=${r.data.redisKey}`, zhang);
    const sheet = await readSheet(fail.body);
    expect(sheet.slice(1).map((x) => x[2])).toEqual([
      '未找到该税号的客户，或您无权访问',
      '未找到该税号的客户，或您无权访问',
      '文件中该税号重复',
      '请填写企业税号',
    ]);
    // No password is written into the failure file.
    expect(JSON.stringify(sheet)).not.toContain('Imp#Pass01');
    const tpl = await download(t, `/api/${CUSTOMER_FILES.pwdTemplate}`, zhang);
    expect((await readSheet(tpl.body))[0]).toEqual([...PWD_IMPORT_COLUMNS]);
  });
});

describe('export (exportAgencyEnterprise)', () => {
  it('streams the current filter as .xlsx, within the scope, formula-like cells neutralised', async () => {
    await create(t, zhang, { qymc: '@SUM(1+1)测试有限公司', address: '=1+2' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/${CUSTOMER_FILES.export}`,
      headers: { 'content-type': 'application/json', cookie: zhang },
      payload: JSON.stringify({ sortField: 'qymc', sortOrder: 'ascend' }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readSheet(res.rawPayload);
    const total = (await list(t, zhang, { pageSize: 20 })).total;
    expect(sheet.length).toBe(total + 1);
    expect(sheet[0]?.[0]).toBe('企业名称');
    const row = sheet.find((r) => r[0]?.includes('SUM'));
    expect(row?.[0]).toBe("'@SUM(1+1)测试有限公司");
    expect(row?.[4]).toBe("'=1+2");
    const filtered = await t.app.inject({
      method: 'POST',
      url: `/api/${CUSTOMER_FILES.export}`,
      headers: { 'content-type': 'application/json', cookie: admin },
      payload: JSON.stringify({ qyxz: '0' }),
    });
    const rows = await readSheet(filtered.rawPayload);
    expect(rows.slice(1).every((r) => r[2] === '一般纳税人')).toBe(true);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/${CUSTOMER_FILES.export}`,
      headers: { 'content-type': 'application/json', cookie: admin },
      payload: JSON.stringify({ agencyId: 2 }),
    });
    expect(bad.statusCode).toBe(400);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      const denied = await t.app.inject({
        method: 'POST',
        url: `/api/${CUSTOMER_FILES.export}`,
        headers: { 'content-type': 'application/json', cookie: zhang },
        payload: '{}',
      });
      expect(denied.statusCode).toBe(460);
    });
  });
});

describe('attachments', () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100, 32), Buffer.from('\n%%EOF')]);
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(50)]);

  it('accepts by content, serves through a checked route, and deletes', async () => {
    const url = `${CUSTOMER_FILES.attachmentUpload}?enterpriseId=${ENT.zhangOwn}`;
    const up = await upload<{ id: number }>(t, url, zhang, { name: '营业执照.pdf', data: pdf });
    expect(up.code).toBe(CODE.OK);
    const xlsxFile = await xlsx(['a'], [['b']]);
    expect((await upload(t, url, zhang, { name: '账套.xlsx', data: xlsxFile })).code).toBe(CODE.OK);
    expect((await upload(t, url, zhang, { name: 'logo.png', data: png })).code).toBe(CODE.OK);
    const d = await detail(t, zhang, ENT.zhangOwn);
    expect(d.attachments.map((a) => a.fileName).sort()).toEqual(['logo.png', '营业执照.pdf', '账套.xlsx'].sort());
    const got = await download(t, `/api/${CUSTOMER_FILES.attachmentDownload}/${up.data.id}`, zhang);
    expect(got.status).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toContain(encodeURIComponent('营业执照.pdf'));
    expect(got.body.equals(pdf)).toBe(true);
    // Out of scope, another agency, no session: nothing.
    const li = await t.login('13800000001');
    expect((await download(t, `/api/${CUSTOMER_FILES.attachmentDownload}/${up.data.id}`, li)).status).toBe(200);
    expect((await download(t, `/api/${CUSTOMER_FILES.attachmentDownload}/${up.data.id}`, other)).status).toBe(404);
    expect((await download(t, `/api/${CUSTOMER_FILES.attachmentDownload}/${up.data.id}`)).status).toBe(403);
    expect((await t.call(deleteAttachmentCall.path, { id: up.data.id }, other)).status).toBe(404);
    expect((await t.call(deleteAttachmentCall.path, { id: up.data.id }, zhang)).code).toBe(CODE.OK);
    expect((await download(t, `/api/${CUSTOMER_FILES.attachmentDownload}/${up.data.id}`, zhang)).status).toBe(404);
  });

  it('refuses a wrong kind, a renamed file, a file over 10 MB, and someone else’s enterprise', async () => {
    const url = (id: number) => `${CUSTOMER_FILES.attachmentUpload}?enterpriseId=${id}`;
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]);
    const msg = '仅支持 PDF、JPG、PNG、XLSX、DOCX 文件，且内容须与扩展名一致';
    expect((await upload(t, url(ENT.zhangOwn), zhang, { name: 'a.exe', data: exe })).msg).toBe(msg);
    expect((await upload(t, url(ENT.zhangOwn), zhang, { name: '伪装.pdf', data: exe })).msg).toBe(msg);
    expect((await upload(t, url(ENT.zhangOwn), zhang, { name: 'a.png', data: pdf })).msg).toBe(msg);
    expect((await upload(t, url(ENT.zhangOwn), zhang, { name: 'a.docx', data: plainZip() })).msg).toBe(msg);
    const big = Buffer.concat([pdf, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload(t, url(ENT.zhangOwn), zhang, { name: 'big.pdf', data: big });
    expect(tooBig.status).toBe(413);
    expect(tooBig.msg).toBe('附件大小不能超过 10MB');
    expect((await upload(t, url(ENT.liOwn), zhang, { name: 'a.pdf', data: pdf })).status).toBe(404);
    expect((await upload(t, url(ENT.otherAgency), admin, { name: 'a.pdf', data: pdf })).status).toBe(404);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await upload(t, url(ENT.zhangOwn), zhang, { name: 'a.pdf', data: pdf })).status).toBe(460);
    });
    expect((await t.call(customerDetailCall.path, { id: ENT.zhangOwn }, zhang)).code).toBe(CODE.OK);
  });
});
