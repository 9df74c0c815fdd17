import {
  CODE,
  MSG,
  SERVICE_MSG,
  type ServiceItem,
  selectTemplateByIdCall,
  selectTemplateByIdV2Call,
  selectTemplateListCall,
  serviceItemListCall,
  serviceItemSaveCall,
  serviceItemStaticCall,
  TEMPLATE_MSG,
  type TemplateDetail,
  type TemplateItem,
  type TemplateSaveBody,
  templateDeleteCall,
  templatePageCall,
  templateSaveCall,
  templateStaticCall,
  templateVerifySetCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, ENT, ID, OTHER_ADMIN, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin: string;
let zhang: string;
let other: string;

/** Demo seed (contract-template.seed.ts): agency 1 has service items 1-10 (10 工商变更 disabled) and templates 1-6. */
const SVC = { jz: 1, lsb: 2, gsnb: 3, sb: 4, gs: 5, gz: 6, fp: 7, disabled: 10, otherAgency: 11 } as const;
const TPL = { xgm: 1, ybns: 2, off: 5, otherAgency: 7 } as const;

beforeAll(async () => {
  t = await startTestApp();
  [admin, zhang, other] = await Promise.all([t.login(ADMIN), t.login(ZHANG), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

const page = (cookie: string, body: Record<string, unknown> = {}) =>
  t.call<{ list: TemplateItem[]; total: string }>(templatePageCall.path, body, cookie);

const line = (service: number, price: string, discount = '0.00', isGive: 0 | 1 = 0) => ({
  service,
  isGive,
  price,
  discount,
});

const save = (cookie: string, body: Partial<TemplateSaveBody>) =>
  t.call<{ id: number; tempTotalPrice: string }>(
    templateSaveCall.path,
    { tempName: '测试模板', tempIllustration: '', tempDetailList: [line(SVC.jz, '1000.00')], ...body },
    cookie,
  );

describe('service items', () => {
  it('lists the agency’s own items, filtered by status and name; the agency comes from the session', async () => {
    const all = await t.call<{ list: ServiceItem[]; total: number }>(serviceItemListCall.path, {}, admin);
    expect(all.code).toBe(CODE.OK);
    expect(all.data.total).toBe(10);
    expect(all.data.list[0]).toMatchObject({
      serviceName: '记账报税',
      jobType: '1',
      price: '300.00',
      service_static: '1',
    });
    const on = await t.call<{ total: number }>(
      serviceItemListCall.path,
      { service_static: '1', service_name: '' },
      admin,
    );
    expect(on.data.total).toBe(9);
    const named = await t.call<{ list: ServiceItem[] }>(serviceItemListCall.path, { service_name: '社保' }, admin);
    expect(named.data.list.map((s) => s.serviceName)).toEqual(['社保代缴']);
    const theirs = await t.call<{ total: number }>(serviceItemListCall.path, {}, other);
    expect(theirs.data.total).toBe(3);
    // A body naming an agency is refused: the agency is never taken from the body.
    const sneaky = await t.call(serviceItemListCall.path, { agency_id: 2 }, admin);
    expect(sneaky.code).toBe(CODE.BAD_REQUEST);
    expect((await t.call(serviceItemListCall.path, {})).status).toBe(403);
  });

  it('creates, edits, enables and disables items; bad input changes nothing', async () => {
    const made = await t.call<{ id: number }>(
      serviceItemSaveCall.path,
      { serviceName: '审计报告', serviceBriName: '审计', jobType: '7', price: '1500.5' },
      admin,
    );
    expect(made.code).toBe(CODE.OK);
    const dup = await t.call(serviceItemSaveCall.path, { serviceName: '审计报告', jobType: '7', price: '1' }, admin);
    expect(dup).toMatchObject({ code: CODE.CONFLICT, msg: SERVICE_MSG.nameTaken });
    const badPrice = await t.call(
      serviceItemSaveCall.path,
      { serviceName: '新项目', jobType: '1', price: '1.234' },
      admin,
    );
    expect(badPrice.code).toBe(CODE.BAD_REQUEST);
    expect(badPrice.msg).toContain(SERVICE_MSG.pricePattern);
    const noName = await t.call(serviceItemSaveCall.path, { serviceName: ' ', jobType: '1', price: '1' }, admin);
    expect(noName.msg).toContain(SERVICE_MSG.nameRequired);
    const noType = await t.call(serviceItemSaveCall.path, { serviceName: '新项目', jobType: '8', price: '1' }, admin);
    expect(noType.msg).toContain(SERVICE_MSG.jobTypeRequired);

    const edited = await t.call(
      serviceItemSaveCall.path,
      { id: made.data.id, serviceName: '审计报告', jobType: '7', price: '1800.00', service_static: '1' },
      admin,
    );
    expect(edited.code).toBe(CODE.OK);
    const off = await t.call(serviceItemStaticCall.path, { id: made.data.id, service_static: '0' }, admin);
    expect(off.code).toBe(CODE.OK);
    const list = await t.call<{ list: ServiceItem[] }>(serviceItemListCall.path, { service_name: '审计' }, admin);
    expect(list.data.list[0]).toMatchObject({ price: '1800.00', service_static: '0' });
    // Another agency's item is not found, and not touched.
    const foreign = await t.call(serviceItemStaticCall.path, { id: SVC.otherAgency, service_static: '0' }, admin);
    expect(foreign).toMatchObject({ code: CODE.NOT_FOUND, msg: SERVICE_MSG.notFound });
    const foreignEdit = await t.call(
      serviceItemSaveCall.path,
      { id: SVC.otherAgency, serviceName: 'x', jobType: '1', price: '1' },
      admin,
    );
    expect(foreignEdit.code).toBe(CODE.NOT_FOUND);
    const [row] = await t.ownerQuery<{ service_static: string }>(
      'select service_static from service_items where id = $1',
      [SVC.otherAgency],
    );
    expect(row?.service_static).toBe('1');
  });

  it('needs 编辑服务项目 to change items', async () => {
    await withDefaultPerms(t, ['contract:service:view'], async () => {
      const r = await t.call(serviceItemSaveCall.path, { serviceName: '越权', jobType: '1', price: '1' }, zhang);
      expect(r).toMatchObject({ status: 460, code: CODE.NO_PERMISSION, msg: MSG.noPermission });
      const s = await t.call(serviceItemStaticCall.path, { id: SVC.jz, service_static: '0' }, zhang);
      expect(s.code).toBe(CODE.NO_PERMISSION);
    });
  });
});

describe('template list and detail', () => {
  it('pages with sizes 10/20/30/50, total as a string, names and job types of the lines', async () => {
    const r = await page(admin, { pageNo: 1, pageSize: 10, tempName: '' });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.total).toBe('6');
    const xgm = r.data.list.find((x) => x.id === TPL.xgm);
    expect(xgm).toMatchObject({
      tempName: '小规模全年',
      tempTotalPrice: '3000.00',
      tempServName: '记账报税,工商年报',
      jobTypeList: '1,3',
      tempStatic: '1',
      isVerifySet: '1',
    });
    const second = await page(admin, { pageNo: 2, pageSize: 10 });
    expect(second.data.list).toEqual([]);
    const filtered = await page(admin, { tempName: '套餐' });
    expect(filtered.data.list.map((x) => x.tempName).sort()).toEqual(['全能套餐', '零申报套餐']);
    const bad = await page(admin, { pageSize: 15 });
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toContain('每页条数须为10、20、30或50');
    const theirs = await page(other);
    expect(theirs.data.total).toBe('1');
    expect((await page('')).status).toBe(403);
    await withDefaultPerms(t, ['contract:service:view'], async () => {
      expect((await page(zhang)).code).toBe(CODE.NO_PERMISSION);
    });
  });

  it('gives a template with its lines in order; another agency’s id is not found', async () => {
    for (const path of [selectTemplateByIdCall.path, selectTemplateByIdV2Call.path]) {
      const r = await t.call<TemplateDetail>(path, { id: TPL.ybns }, admin);
      expect(r.code).toBe(CODE.OK);
      expect(r.data.tempDetailList).toEqual([
        {
          service: SVC.jz,
          serviceName: '记账报税',
          serviceBriName: '记账',
          jobType: '1',
          isGive: 0,
          price: '7200.00',
          discount: '0.00',
          nowPrice: '7200.00',
        },
        {
          service: SVC.gs,
          serviceName: '个税申报',
          serviceBriName: '个税',
          jobType: '5',
          isGive: 0,
          price: '600.00',
          discount: '0.00',
          nowPrice: '600.00',
        },
        {
          service: 9,
          serviceName: '汇算清缴',
          serviceBriName: '汇缴',
          jobType: '2',
          isGive: 0,
          price: '800.00',
          discount: '100.00',
          nowPrice: '700.00',
        },
      ]);
      expect(r.data.tempTotalPrice).toBe('8500.00');
      const foreign = await t.call(path, { id: TPL.otherAgency }, admin);
      expect(foreign).toMatchObject({ code: CODE.NOT_FOUND, msg: TEMPLATE_MSG.notFound });
    }
  });

  it('offers only enabled templates to choosers', async () => {
    const r = await t.call<TemplateItem[]>(selectTemplateListCall.path, {}, zhang);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.length).toBe(5);
    expect(r.data.some((x) => x.id === TPL.off)).toBe(false);
  });
});

describe('saving a template', () => {
  it('adds with the total computed on the server and edits with the lines replaced in order', async () => {
    const made = await save(admin, {
      tempName: '新建模板',
      tempIllustration: '说明',
      tempDetailList: [line(SVC.jz, '1200.00', '200.00'), { ...line(SVC.gsnb, '300', '0', 1), nowPrice: '300.00' }],
      tempTotalPrice: '1300.00',
    });
    expect(made).toMatchObject({ code: CODE.OK, data: { tempTotalPrice: '1300.00' } });
    const edited = await save(admin, {
      id: made.data.id,
      tempName: '新建模板',
      tempDetailList: [line(SVC.fp, '99.99'), line(SVC.jz, '1000.00', '0.01')],
    });
    expect(edited.data).toEqual({ id: made.data.id, tempTotalPrice: '1099.98' });
    const d = await t.call<TemplateDetail>(selectTemplateByIdCall.path, { id: made.data.id }, admin);
    expect(d.data.tempDetailList.map((l) => [l.serviceName, l.nowPrice])).toEqual([
      ['代开发票', '99.99'],
      ['记账报税', '999.99'],
    ]);
    const stored = await t.ownerQuery<{ temp_total_price_fen: string }>(
      'select temp_total_price_fen from contract_templates where id = $1',
      [made.data.id],
    );
    expect(Number(stored[0]?.temp_total_price_fen)).toBe(109998);
    const audits = await t.ownerQuery<{ action: string }>(
      'select action from audit_log where target = $1 order by id',
      [`template:${made.data.id}`],
    );
    expect(audits.map((a) => a.action)).toEqual(['contract_template.add', 'contract_template.edit']);
  });

  it('refuses each rule of the form with its message, and writes nothing', async () => {
    const cases: [Partial<TemplateSaveBody>, string][] = [
      [{ tempName: '' }, TEMPLATE_MSG.nameRequired],
      [{ tempName: '一二三四五六七八九十一' }, TEMPLATE_MSG.nameTooLong],
      [{ tempIllustration: 'x'.repeat(51) }, TEMPLATE_MSG.descTooLong],
      [{ tempDetailList: [] }, TEMPLATE_MSG.lineRequired],
      [{ tempDetailList: [line(SVC.jz, '1'), line(SVC.jz, '2')] }, TEMPLATE_MSG.serviceDuplicate],
      [{ tempDetailList: [line(SVC.jz, '')] }, TEMPLATE_MSG.amountRequired],
      [{ tempDetailList: [line(SVC.jz, '100', '')] }, TEMPLATE_MSG.amountRequired],
      [{ tempDetailList: [line(SVC.jz, '1.234')] }, TEMPLATE_MSG.amountPattern],
      [{ tempDetailList: [line(SVC.jz, '-5')] }, TEMPLATE_MSG.amountPattern],
      [{ tempDetailList: [line(SVC.jz, '12345678.90')] }, TEMPLATE_MSG.amountTooLong],
      [{ tempDetailList: [line(SVC.jz, '100', '100.01')] }, TEMPLATE_MSG.discountTooBig],
      [{ tempDetailList: [{ ...line(SVC.jz, '100', '10'), nowPrice: '100.00' }] }, TEMPLATE_MSG.nowPriceMismatch],
      [{ tempDetailList: [line(SVC.jz, '100')], tempTotalPrice: '99.00' }, TEMPLATE_MSG.totalMismatch],
      [{ tempDetailList: [line(SVC.otherAgency, '100')] }, TEMPLATE_MSG.serviceUnknown],
      [{ tempDetailList: [line(SVC.disabled, '100')] }, TEMPLATE_MSG.serviceUnknown],
      [{ tempName: '小规模全年' }, TEMPLATE_MSG.nameTaken],
    ];
    const before = await t.ownerQuery<{ n: number }>('select count(*)::int as n from contract_templates');
    for (const [body, msg] of cases) {
      const r = await save(admin, body);
      expect(r.code, msg).not.toBe(CODE.OK);
      expect(r.msg).toContain(msg);
    }
    const after = await t.ownerQuery<{ n: number }>('select count(*)::int as n from contract_templates');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('needs 新增合同模板 to add and 编辑合同模板 to edit; another agency’s template is not found', async () => {
    await withDefaultPerms(t, ['contract:template:view', 'contract:template:edit'], async () => {
      const r = await save(zhang, { tempName: '越权新增' });
      expect(r).toMatchObject({ status: 460, code: CODE.NO_PERMISSION });
    });
    await withDefaultPerms(t, ['contract:template:view', 'contract:template:add'], async () => {
      const r = await save(zhang, { id: TPL.xgm, tempName: '越权编辑' });
      expect(r.code).toBe(CODE.NO_PERMISSION);
      expect((await save(zhang, { tempName: '员工新增' })).code).toBe(CODE.OK);
    });
    const foreign = await save(admin, { id: TPL.otherAgency, tempName: '他人模板' });
    expect(foreign.code).toBe(CODE.NOT_FOUND);
    const [row] = await t.ownerQuery<{ temp_name: string }>('select temp_name from contract_templates where id = $1', [
      TPL.otherAgency,
    ]);
    expect(row?.temp_name).toBe('小规模全年');
  });
});

describe('status, settings and delete', () => {
  it('only an administrator switches the status (请联系管理员修改！ from the server too)', async () => {
    const refused = await t.call(templateStaticCall.path, { id: TPL.xgm, temp_static: '0' }, zhang);
    expect(refused).toMatchObject({ code: CODE.NO_PERMISSION, msg: TEMPLATE_MSG.adminOnly });
    const off = await t.call(templateStaticCall.path, { id: TPL.xgm, temp_static: '0' }, admin);
    expect(off.code).toBe(CODE.OK);
    expect((await page(admin)).data.list.find((x) => x.id === TPL.xgm)?.tempStatic).toBe('0');
    const on = await t.call(templateStaticCall.path, { id: TPL.xgm, temp_static: '1' }, admin);
    expect(on.code).toBe(CODE.OK);
    const bad = await t.call(templateStaticCall.path, { id: TPL.xgm, temp_static: '2' }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    const foreign = await t.call(templateStaticCall.path, { id: TPL.otherAgency, temp_static: '0' }, admin);
    expect(foreign.code).toBe(CODE.NOT_FOUND);
  });

  it('marks the settings configured only on an enabled template', async () => {
    const r = await t.call(templateVerifySetCall.path, { id: TPL.ybns, isVerifySet: '1' }, admin);
    expect(r.code).toBe(CODE.OK);
    expect((await page(admin)).data.list.find((x) => x.id === TPL.ybns)?.isVerifySet).toBe('1');
    const off = await t.call(templateVerifySetCall.path, { id: TPL.off, isVerifySet: '1' }, admin);
    expect(off).toMatchObject({ code: CODE.BAD_REQUEST, msg: TEMPLATE_MSG.settingsDisabled });
  });

  it('deletes a template; contracts made from it keep their lines, no longer linked', async () => {
    // A contract made from template 2 (as the contract form would write it).
    const [c] = await t.ownerQuery<{ id: number }>(
      `insert into contracts (agency_id, contract_no, enterprise_id, template_id, contract_user_id, sign_date, start_date, end_date, total_price_fen, amount_fen)
       values (1, 'HT-TPL-TEST', $1, $2, $3, '2026-01-01', '2026-01-01', '2026-12-31', 850000, 850000) returning id`,
      [ENT.adminOwn, TPL.ybns, ID.admin],
    );
    await t.ownerQuery(
      `insert into contract_lines (agency_id, contract_id, sort, service_id, service_name, job_type, price_fen, now_price_fen)
       values (1, $1, 1, $2, '记账报税', '1', 720000, 720000)`,
      [c?.id, SVC.jz],
    );
    await withDefaultPerms(t, ['contract:template:view'], async () => {
      expect((await t.call(templateDeleteCall.path, { id: TPL.ybns }, zhang)).code).toBe(CODE.NO_PERMISSION);
    });
    const foreign = await t.call(templateDeleteCall.path, { id: TPL.otherAgency }, admin);
    expect(foreign.code).toBe(CODE.NOT_FOUND);
    const r = await t.call(templateDeleteCall.path, { id: TPL.ybns }, admin);
    expect(r.code).toBe(CODE.OK);
    const gone = await t.call(selectTemplateByIdCall.path, { id: TPL.ybns }, admin);
    expect(gone.code).toBe(CODE.NOT_FOUND);
    const [kept] = await t.ownerQuery<{ template_id: number | null; n: number }>(
      'select template_id, (select count(*)::int from contract_lines where contract_id = c.id) as n from contracts c where id = $1',
      [c?.id],
    );
    expect(kept).toEqual({ template_id: null, n: 1 });
    const lines = await t.ownerQuery<{ n: number }>(
      'select count(*)::int as n from contract_template_lines where template_id = $1',
      [TPL.ybns],
    );
    expect(lines[0]?.n).toBe(0);
    const [still] = await t.ownerQuery<{ n: number }>(
      'select count(*)::int as n from contract_templates where id = $1',
      [TPL.otherAgency],
    );
    expect(still?.n).toBe(1);
  });
});
