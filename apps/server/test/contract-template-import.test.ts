import {
  CODE,
  CONTRACT_TEMPLATE_FILES,
  SERVICE_IMPORT_COLUMNS,
  selectTemplateByIdCall,
  TEMPLATE_IMPORT_COLUMNS,
  TEMPLATE_IMPORT_MSG,
  TEMPLATE_MSG,
  type TemplateDetail,
  type TemplateImportResult,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, download, OTHER_ADMIN, readSheet, upload, withDefaultPerms, xlsx, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, zhang, other] = await Promise.all([t.login(ADMIN), t.login(ZHANG), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

type Row = [name: string, desc: string, service: string, give: string, price: string, discount: string];

const importTemplates = (rows: Row[], cookie = admin) =>
  xlsx(TEMPLATE_IMPORT_COLUMNS, rows).then((data) =>
    upload<TemplateImportResult>(t, CONTRACT_TEMPLATE_FILES.templateImport, cookie, { name: '合同模板.xlsx', data }),
  );

const templateByName = async (name: string) => {
  const [row] = await t.ownerQuery<{ id: number }>(
    'select id from contract_templates where agency_id = 1 and temp_name = $1',
    [name],
  );
  if (!row) return null;
  const r = await t.call<TemplateDetail>(selectTemplateByIdCall.path, { id: row.id }, admin);
  return r.data;
};

describe('template import', () => {
  it('imports 500 templates with 20 bad rows: 480 written, 20 in the failure file with reasons', async () => {
    const rows: Row[] = [];
    for (let i = 1; i <= 500; i++) {
      const bad = i % 25 === 0;
      rows.push([`批量${i}`, `第${i}个`, i % 2 ? '记账报税' : '个税申报', '否', bad ? '12.345' : `${i}.50`, '0.50']);
    }
    const started = Date.now();
    const r = await importTemplates(rows);
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ successNum: 480, failNum: 20, unExport: 0 });
    expect(r.data.redisKey).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.now() - started).toBeLessThan(60_000);
    const [count] = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from contract_templates where agency_id = 1 and temp_name like '批量%'",
    );
    expect(count?.n).toBe(480);
    const one = await templateByName('批量7');
    expect(one).toMatchObject({ tempIllustration: '第7个', tempTotalPrice: '7.00', tempServName: '记账报税' });
    expect(await templateByName('批量25')).toBeNull();

    const file = await download(
      t,
      `/api/${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.data.redisKey}`,
      admin,
    );
    expect(file.status).toBe(200);
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toContain(
      `${TEMPLATE_IMPORT_MSG.failListName}.xlsx`,
    );
    const sheet = await readSheet(file.body);
    expect(sheet[0]).toEqual([...TEMPLATE_IMPORT_COLUMNS, '行号', '失败原因']);
    expect(sheet.length).toBe(21);
    expect(sheet.slice(1).map((x) => x[0])).toEqual(Array.from({ length: 20 }, (_, i) => `批量${(i + 1) * 25}`));
    for (const x of sheet.slice(1)) expect(x[7]).toBe(`单价：${TEMPLATE_MSG.amountPattern}`);

    // Another agency does not get this agency's failure file; nor does a caller without the permission.
    const foreign = await download(
      t,
      `/api/${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.data.redisKey}`,
      other,
    );
    expect(foreign.status).toBe(404);
    expect(
      (await download(t, `/api/${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.data.redisKey}`)).status,
    ).toBe(403);
  });

  it('updates a template of the same name, lines replaced in row order', async () => {
    const r = await importTemplates([
      ['零申报套餐', '改过的说明', '社保代缴', '否', '100', '10'],
      ['零申报套餐', '', '零申报', '是', '50.5', ''],
    ]);
    expect(r.data).toMatchObject({ successNum: 1, failNum: 0, unExport: 0, redisKey: '' });
    const d = await templateByName('零申报套餐');
    expect(d?.tempIllustration).toBe('改过的说明');
    expect(d?.tempTotalPrice).toBe('140.50');
    expect(d?.tempDetailList.map((l) => [l.serviceName, l.isGive, l.nowPrice])).toEqual([
      ['社保代缴', 0, '90.00'],
      ['零申报', 1, '50.50'],
    ]);
  });

  it('never half-writes a template: one bad row refuses the whole template, old or new', async () => {
    const before = await templateByName('全能套餐');
    const r = await importTemplates([
      ['全能套餐', '', '记账报税', '否', '1', '0'],
      ['全能套餐', '', '不存在的服务', '否', '1', '0'],
      ['两行新模板', '', '记账报税', '否', '1', '0'],
      ['两行新模板', '', '记账报税', '否', '2', '0'],
      ['赠送有误', '', '记账报税', '送', '1', '0'],
      ['优惠过大', '', '记账报税', '否', '1', '2'],
      ['停用服务', '', '工商变更', '否', '1', '0'],
      ['一二三四五六七八九十一', '', '记账报税', '否', '1', '0'],
      ['', '', '记账报税', '否', '1', '0'],
      ['好模板', '', '代开发票', '否', '88', ''],
    ]);
    expect(r.data).toMatchObject({ successNum: 1, failNum: 7, unExport: 0 });
    expect(await templateByName('全能套餐')).toEqual(before);
    expect(await templateByName('两行新模板')).toBeNull();
    expect((await templateByName('好模板'))?.tempTotalPrice).toBe('88.00');
    const sheet = await readSheet(
      (await download(t, `/api/${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.data.redisKey}`, admin)).body,
    );
    const reasons = Object.fromEntries(sheet.slice(1).map((x) => [`${x[0] ?? ''}/${x[6]}`, x[7]]));
    expect(reasons).toEqual({
      '全能套餐/2': '同一模板的其他行有误，整个模板未导入',
      '全能套餐/3': '服务项目不存在：不存在的服务',
      '两行新模板/4': '同一模板的其他行有误，整个模板未导入',
      '两行新模板/5': TEMPLATE_MSG.serviceDuplicate,
      '赠送有误/6': '是否赠送请填写“是”或“否”',
      '优惠过大/7': TEMPLATE_MSG.discountTooBig,
      '停用服务/8': '服务项目已停用：工商变更',
      '一二三四五六七八九十一/9': TEMPLATE_MSG.nameTooLong,
      '/10': TEMPLATE_MSG.nameRequired,
    });
  });

  it('imports at most 500 templates; the rest are counted as not imported', async () => {
    const rows: Row[] = Array.from({ length: 502 }, (_, i) => [`上限${i + 1}`, '', '记账报税', '否', '1', '0']);
    const r = await importTemplates(rows);
    expect(r.data).toMatchObject({ successNum: 500, failNum: 0, unExport: 2 });
    const sheet = await readSheet(
      (await download(t, `/api/${CONTRACT_TEMPLATE_FILES.templateFailList}?redisKey=${r.data.redisKey}`, admin)).body,
    );
    expect(sheet.slice(1).map((x) => [x[0], x[7]])).toEqual([
      ['上限501', TEMPLATE_IMPORT_MSG.overLimit],
      ['上限502', TEMPLATE_IMPORT_MSG.overLimit],
    ]);
  });

  it('refuses a bad file with the Chinese message and writes nothing', async () => {
    const good = await xlsx(TEMPLATE_IMPORT_COLUMNS, [['拒绝', '', '记账报税', '否', '1', '0']]);
    const path = CONTRACT_TEMPLATE_FILES.templateImport;
    const asXls = await upload(t, path, admin, { name: 'a.xls', data: good });
    expect(asXls).toMatchObject({ code: CODE.BAD_REQUEST, msg: TEMPLATE_IMPORT_MSG.badType });
    // A .csv of the same rows too: the template file is .xlsx only (business.md), though other imports read .csv.
    const asCsv = await upload(t, path, admin, {
      name: '模板.CSV',
      data: Buffer.from(`${TEMPLATE_IMPORT_COLUMNS.join(',')}\n拒绝,,记账报税,否,1,0\n`),
    });
    expect(asCsv).toMatchObject({ code: CODE.BAD_REQUEST, msg: TEMPLATE_IMPORT_MSG.badType });
    // The extension is checked case-insensitively.
    const upper = await upload(t, path, admin, {
      name: '大写.XLSX',
      data: await xlsx(TEMPLATE_IMPORT_COLUMNS, [['大写扩展名', '', '记账报税', '否', '1', '0']]),
    });
    expect(upper.code).toBe(CODE.OK);
    expect(await templateByName('大写扩展名')).not.toBeNull();
    const fake = await upload(t, path, admin, { name: 'a.xlsx', data: Buffer.from('not a zip') });
    expect(fake.msg).toBe(TEMPLATE_IMPORT_MSG.badType);
    const none = await upload(t, path, admin, null);
    expect(none.msg).toBe(TEMPLATE_IMPORT_MSG.noFile);
    const big = await upload(t, path, admin, { name: 'big.xlsx', data: Buffer.alloc(5 * 1024 * 1024 + 10, 1) });
    expect(big).toMatchObject({ status: 413, msg: TEMPLATE_IMPORT_MSG.tooLarge });
    const header = await xlsx(
      ['模板', '说明', '服务项目', '是否赠送', '单价', '优惠'],
      [['拒绝', '', '记账报税', '否', '1', '0']],
    );
    expect((await upload(t, path, admin, { name: 'h.xlsx', data: header })).msg).toBe(TEMPLATE_IMPORT_MSG.header);
    const empty = await xlsx(TEMPLATE_IMPORT_COLUMNS, []);
    expect((await upload(t, path, admin, { name: 'e.xlsx', data: empty })).msg).toBe(TEMPLATE_IMPORT_MSG.empty);
    // Two files in one upload: 当前限制上传 1 个文件.
    const boundary = '----dzytwofiles';
    const part = (name: string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
        good,
        Buffer.from('\r\n'),
      ]);
    const two = await t.app.inject({
      method: 'POST',
      url: `/api/${path}`,
      headers: { cookie: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([part('a.xlsx'), part('b.xlsx'), Buffer.from(`--${boundary}--\r\n`)]),
    });
    expect(two.json()).toMatchObject({ code: CODE.BAD_REQUEST, msg: TEMPLATE_IMPORT_MSG.oneFile });
    expect((await upload(t, path, undefined, { name: 'a.xlsx', data: good })).status).toBe(403);
    await withDefaultPerms(t, ['contract:template:view', 'contract:template:add'], async () => {
      expect((await upload(t, path, zhang, { name: 'a.xlsx', data: good })).status).toBe(460);
    });
    expect(await templateByName('拒绝')).toBeNull();
  });

  it('offers htmb_temp.xlsx with the import columns and example rows that import as they are', async () => {
    const file = await download(t, `/api/${CONTRACT_TEMPLATE_FILES.templateStatic}`, admin);
    expect(file.status).toBe(200);
    expect(String(file.headers['content-disposition'])).toContain('htmb_temp.xlsx');
    const sheet = await readSheet(file.body);
    expect(sheet[0]).toEqual([...TEMPLATE_IMPORT_COLUMNS]);
    const r = await upload<TemplateImportResult>(t, CONTRACT_TEMPLATE_FILES.templateImport, other, {
      name: 'htmb_temp.xlsx',
      data: file.body,
    });
    // The other agency has 记账报税 and 工商年报 but no 个税申报: the first example imports, the second fails.
    expect(r.data, `${r.code} ${r.msg}`).toMatchObject({ successNum: 1, failNum: 1 });
    expect((await download(t, `/api/${CONTRACT_TEMPLATE_FILES.templateStatic}`)).status).toBe(403);
  });
});

describe('service-item import', () => {
  it('adds and updates by name, lists bad rows in the failure file', async () => {
    const data = await xlsx(SERVICE_IMPORT_COLUMNS, [
      ['记账报税', '记账', '记账', '350', '启用'],
      ['新服务A', '', '社保', '120.5', ''],
      ['新服务B', '', '不存在', '1', ''],
      ['新服务C', '', '发票', '1.001', ''],
      ['新服务A', '', '社保', '1', ''],
      ['新服务D', '', '其他', '9', '停用'],
    ]);
    const r = await upload<TemplateImportResult>(t, CONTRACT_TEMPLATE_FILES.serviceImport, admin, {
      name: '服务项目.xlsx',
      data,
    });
    expect(r.data).toMatchObject({ successNum: 3, failNum: 3, unExport: 0 });
    const rows = await t.ownerQuery<{
      service_name: string;
      price_fen: string;
      service_static: string;
      job_type: string;
    }>(
      "select service_name, price_fen, service_static, job_type from service_items where agency_id = 1 and service_name in ('记账报税','新服务A','新服务D') order by service_name",
    );
    expect(rows.map((x) => [x.service_name, Number(x.price_fen), x.service_static, x.job_type])).toEqual([
      ['新服务A', 12050, '1', '4'],
      ['新服务D', 900, '0', '9'],
      ['记账报税', 35000, '1', '1'],
    ]);
    const file = await download(
      t,
      `/api/${CONTRACT_TEMPLATE_FILES.serviceFailList}?redisKey=${r.data.redisKey}`,
      admin,
    );
    const sheet = await readSheet(file.body);
    expect(sheet.slice(1).map((x) => [x[0], x[6]])).toEqual([
      ['新服务B', '业务类型须为：记账、报税、工商、社保、个税、发票、咨询、其他'],
      ['新服务C', '请输入正确的单价（最多两位小数）'],
      ['新服务A', '文件中该服务名称重复'],
    ]);
    const tpl = await download(t, `/api/${CONTRACT_TEMPLATE_FILES.serviceTemplate}`, admin);
    expect((await readSheet(tpl.body))[0]).toEqual([...SERVICE_IMPORT_COLUMNS]);
    await withDefaultPerms(t, ['contract:service:view'], async () => {
      const refused = await upload(t, CONTRACT_TEMPLATE_FILES.serviceImport, zhang, { name: 'a.xlsx', data });
      expect(refused.status).toBe(460);
    });
  });
});
