import {
  apiKeyCreateCall,
  approveAgencyApplyCall,
  type BindingItem,
  CODE,
  contractInfoCall,
  contractListCall,
  customerDetailCall,
  customerListCall,
  decideBindCall,
  endBindCall,
  getAgencyInfoListCall,
  getEntListCall,
  getTgDLSAndTgKHCall,
  getUserKjgcRelationCall,
  handoverCall,
  judgeSwitchingButtonCall,
  KJGC_MSG,
  listAgencyApplyCall,
  requestBindCall,
  roleListCall,
  saveKjgcApplyInfoCall,
  saveWhiteOrderCall,
  switchKjgcAgencyCall,
  type Tgkh,
  takeBackCall,
  updateSessionUserInfoCall,
} from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { enterprises, organisations } from '../src/db/schema/index.js';
import { setKjgcScope } from '../src/plugins/session.js';
import { chargesOf, makeContract, pay, today } from './contract-fee-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, registerBySms } from './helpers.js';

const DEMO = '演示财税代理有限公司';
const OTHER = '鸿信财务咨询有限公司';
const FACTORY_NAME = '钱塘记账会计工厂';
const ids = { demo: 0, other: 0, demoFactory: 0, newFactory: 0 };
const tax = { demo: '', other: '' };
let demoClients: number[] = [];
let otherClient = 0;

let t: TestApp;
let operator = '';
let admin = '';
let staff = '';
let otherAdmin = '';
let demoFactory = '';
let applicant = '';
let bindingId = 0;

beforeAll(async () => {
  t = await startTestApp({
    prepare: async (owner) => {
      for (const [key, name] of [
        ['demo', DEMO],
        ['other', OTHER],
        ['demoFactory', '启航会计工厂'],
      ] as const) {
        const [o] = await owner.select().from(organisations).where(eq(organisations.name, name));
        if (!o) throw new Error(name);
        ids[key] = o.id;
        if (key !== 'demoFactory') tax[key] = o.taxNo;
      }
      demoClients = (
        await owner.select({ id: enterprises.id }).from(enterprises).where(eq(enterprises.agencyId, ids.demo))
      )
        .map((e) => e.id)
        .sort((a, b) => a - b);
      const [o] = await owner
        .select({ id: enterprises.id })
        .from(enterprises)
        .where(eq(enterprises.agencyId, ids.other));
      otherClient = o?.id ?? 0;
    },
  });
  [operator, admin, staff, otherAdmin, demoFactory] = await Promise.all([
    t.login('13600000000'),
    t.login('13800000000'),
    t.login('13800000002'),
    t.login('13900000000'),
    t.login('13700000000'),
  ]);
  applicant = await registerBySms(t, '13500000031');
}, 300_000);
afterAll(() => t.close());

type Relation = { isKjgc: boolean; kjgcDlsId: number | null; applyStatus: number | null; agencies: unknown[] };
const relation = async (cookie: string) => (await t.call<Relation>(getUserKjgcRelationCall.path, {}, cookie)).data;
type Page<T> = { list: T[]; total: number };
const entList = (cookie: string, body: Record<string, unknown> = {}) =>
  t.call<Page<Tgkh>>(getEntListCall.path, { pageSize: 500, ...body }, cookie);
const bindings = (cookie: string, body: Record<string, unknown> = {}) =>
  t.call<Page<BindingItem>>(getAgencyInfoListCall.path, body, cookie);
const customers = async (cookie: string) =>
  t.call<Page<{ id: number }>>(customerListCall.path, { pageSize: 500 }, cookie);

const form = (over: Record<string, unknown> = {}) => ({
  agencyName: FACTORY_NAME,
  agencyTax: '91330106MA2KJ0001X',
  address: '杭州市上城区解放路 1 号',
  agencyScale: 1,
  staffNum: 2,
  sssf: '330000',
  ssds: '330100',
  ssqx: '330102',
  ...over,
});

describe('saveKjgcApplyInfo: apply, reviewed by the platform operator, becomes a factory', () => {
  it('refuses bad input with the field and the Chinese message, and writes nothing', async () => {
    expectBadInput(
      await t.call(saveKjgcApplyInfoCall.path, form({ agencyName: '' }), applicant),
      '代理机构名称',
      '请输入代理所名称',
    );
    expectBadInput(await t.call(saveKjgcApplyInfoCall.path, form({ agencyTax: 'ab1' }), applicant), '代理机构税号');
    // 机构规模 is a dictionary code: one the dictionary does not have is refused, as on the agency application.
    expectBadInput(
      await t.call(saveKjgcApplyInfoCall.path, form({ agencyScale: 999 }), applicant),
      '机构规模',
      '请选择机构规模',
    );
    expectBadInput(
      await t.call(saveKjgcApplyInfoCall.path, form({ address: '路'.repeat(200) }), applicant),
      '地址',
      '地址不能超过100个字符',
    );
    expect((await relation(applicant)).applyStatus).toBeNull();
  });

  it('is reviewed on the agency applications page and makes the applicant the factory administrator', async () => {
    const r = await t.call<{ id: number }>(saveKjgcApplyInfoCall.path, form(), applicant);
    expect(r.code).toBe(CODE.OK);
    expect(r.msg).toBe(KJGC_MSG.applyOk);
    expect(await relation(applicant)).toMatchObject({ isKjgc: false, applyStatus: 0 });
    const list = await t.call<Page<{ id: number; agencyType: string }>>(
      listAgencyApplyCall.path,
      { keyword: FACTORY_NAME },
      operator,
    );
    expect(list.data.list).toEqual([expect.objectContaining({ id: r.data.id, agencyType: 'kjgc' })]);
    expectNoPermission(await t.call(approveAgencyApplyCall.path, { id: r.data.id }, admin));
    const ok = await t.call<{ agencyId: number }>(approveAgencyApplyCall.path, { id: r.data.id }, operator);
    expect(ok.code).toBe(CODE.OK);
    ids.newFactory = ok.data.agencyId;
    expect(await relation(applicant)).toMatchObject({ isKjgc: true, kjgcDlsId: null, applyStatus: 1, agencies: [] });
    // Not bound yet: no agency, no clients.
    expect((await entList(applicant)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('binding a factory to an agency with the agency administrator consent', () => {
  it('refuses an agency not on the dljghdkjgcmenu white list and an unknown tax number', async () => {
    const off = await t.call(requestBindCall.path, { agencyTax: tax.other }, applicant);
    expect([off.code, off.msg]).toEqual([CODE.NO_PERMISSION, KJGC_MSG.agencyNotOpen]);
    const unknown = await t.call(requestBindCall.path, { agencyTax: '91110000000000000X' }, applicant);
    expect([unknown.code, unknown.msg]).toEqual([CODE.NOT_FOUND, KJGC_MSG.agencyUnknown]);
    expectBadInput(
      await t.call(requestBindCall.path, { agencyTax: ' ' }, applicant),
      '代理机构税号',
      '请输入代理机构税号',
    );
  });

  it('sends a request the agency sees as pending; a second one is refused', async () => {
    const r = await t.call<{ id: number }>(requestBindCall.path, { agencyTax: tax.demo }, applicant);
    expect(r.code).toBe(CODE.OK);
    bindingId = r.data.id;
    const again = await t.call(requestBindCall.path, { agencyTax: tax.demo }, applicant);
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, KJGC_MSG.bindExists]);
    const pending = await bindings(admin, { status: 0 });
    expect(pending.data.list).toEqual([
      expect.objectContaining({ id: bindingId, kjgcMc: FACTORY_NAME, status: 0, statusName: '待同意' }),
    ]);
    // Not bound until the agency accepts.
    expect((await relation(applicant)).kjgcDlsId).toBeNull();
  });

  it("refuses staff without the permission, another agency's administrator, and the factory itself", async () => {
    expectNoPermission(await t.call(decideBindCall.path, { id: bindingId, accept: true }, staff));
    expectNoPermission(await bindings(staff));
    // 鸿信 gets the white list: its administrator still cannot reach the demo agency's request.
    expect(
      (await t.call(saveWhiteOrderCall.path, { type: 'dljghdkjgcmenu', busiVal: String(ids.other) }, operator)).code,
    ).toBe(CODE.OK);
    const foreign = await t.call(decideBindCall.path, { id: bindingId, accept: true }, otherAdmin);
    expect([foreign.code, foreign.msg]).toEqual([CODE.NOT_FOUND, KJGC_MSG.bindNotFound]);
    expect((await bindings(otherAdmin)).data.list.map((b) => b.id)).not.toContain(bindingId);
    const self = await t.call(decideBindCall.path, { id: bindingId, accept: true }, applicant);
    expect([self.code, self.msg]).toEqual([CODE.NO_PERMISSION, KJGC_MSG.notAgency]);
    expect((await bindings(admin, { status: 0 })).data.list.map((b) => b.id)).toContain(bindingId);
  });

  it('binds on acceptance: the factory acts for the agency (kjgcDlsId) but sees no client yet', async () => {
    expect((await t.call(decideBindCall.path, { id: bindingId, accept: true }, admin)).code).toBe(CODE.OK);
    const again = await t.call(decideBindCall.path, { id: bindingId, accept: false }, admin);
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, KJGC_MSG.bindNotPending]);
    expect(await relation(applicant)).toMatchObject({
      kjgcDlsId: ids.demo,
      agencies: [expect.objectContaining({ agencyId: ids.demo, agencyName: DEMO })],
    });
    const mine = await bindings(applicant);
    expect(mine.data.list).toEqual([
      expect.objectContaining({ id: bindingId, status: 1, agencyName: DEMO, current: true }),
    ]);
    expect((await customers(applicant)).data.total).toBe(0);
    expect((await entList(applicant)).data.total).toBe(0);
  });
});

describe('handing clients over: the factory sees only those', () => {
  it('refuses a client already with another factory and another agency client', async () => {
    // The demo factory has every demo client: a client is with one factory at a time.
    const taken = await t.call(handoverCall.path, { bindingId, aeiIds: [demoClients[0]] }, admin);
    expect([taken.code, taken.msg]).toEqual([CODE.CONFLICT, KJGC_MSG.clientTaken]);
    const foreign = await t.call(handoverCall.path, { bindingId, aeiIds: [otherClient] }, admin);
    expect([foreign.code, foreign.msg]).toEqual([CODE.NOT_FOUND, KJGC_MSG.clientNotFound]);
    expectNoPermission(await t.call(handoverCall.path, { bindingId, aeiIds: [demoClients[0]] }, staff));
    const wrongBinding = await t.call(handoverCall.path, { bindingId, aeiIds: [otherClient] }, otherAdmin);
    expect(wrongBinding.code).toBe(CODE.NOT_FOUND);
    expectBadInput(await t.call(handoverCall.path, { bindingId, aeiIds: [] }, admin), '企业', '请选择客户');
  });

  it('takes two clients back from the demo factory and hands them to the new one', async () => {
    const two = demoClients.slice(0, 2);
    const before = (await customers(demoFactory)).data.total;
    expect(before).toBe(demoClients.length);
    expect((await t.call<{ count: number }>(takeBackCall.path, { aeiIds: two }, admin)).data.count).toBe(2);
    expect((await customers(demoFactory)).data.total).toBe(before - 2);
    expect((await t.call<{ count: number }>(handoverCall.path, { bindingId, aeiIds: two }, admin)).data).toEqual({
      count: 2,
    });
    const list = await customers(applicant);
    expect(list.data.list.map((c) => c.id).sort((a, b) => a - b)).toEqual(two);
    expect((await entList(applicant)).data.list.map((c) => c.id).sort((a, b) => a - b)).toEqual(two);
    // A client not handed over is out of reach, as another agency's would be.
    expect((await t.call(customerDetailCall.path, { id: demoClients[2] }, applicant)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(customerDetailCall.path, { id: two[0] }, applicant)).code).toBe(CODE.OK);
    const tg = await t.call<{ list: { agencyId: number; tgkhCount: number; current: boolean }[] }>(
      getTgDLSAndTgKHCall.path,
      {},
      applicant,
    );
    expect(tg.data.list).toEqual([expect.objectContaining({ agencyId: ids.demo, tgkhCount: 2, current: true })]);
    const agencySide = await entList(admin, { kjgcId: ids.newFactory });
    expect(agencySide.data.total).toBe(2);
    // The factory cannot hand clients over, nor switch to an agency it is not bound to.
    expect((await t.call(handoverCall.path, { bindingId, aeiIds: two }, applicant)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(switchKjgcAgencyCall.path, { agencyId: ids.other }, applicant)).code).toBe(CODE.NOT_FOUND);
    // getTgDLSAndTgKH is the factory's.
    const notFactory = await t.call(getTgDLSAndTgKHCall.path, {}, admin);
    expect([notFactory.code, notFactory.msg]).toEqual([CODE.NO_PERMISSION, KJGC_MSG.notFactory]);
  });
});

describe('unbinding', () => {
  it("refuses another agency's binding id and staff", async () => {
    expect((await t.call(endBindCall.path, { id: bindingId }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expectNoPermission(await t.call(endBindCall.path, { id: bindingId }, staff));
  });

  it('takes effect at once: the factory session open before loses the clients on its next request', async () => {
    expect((await customers(applicant)).data.total).toBe(2);
    expect((await t.call(endBindCall.path, { id: bindingId }, admin)).code).toBe(CODE.OK);
    expect((await customers(applicant)).data.total).toBe(0);
    expect((await t.call(customerDetailCall.path, { id: demoClients[0] }, applicant)).code).toBe(CODE.NOT_FOUND);
    expect((await entList(applicant, { agencyId: ids.demo })).code).toBe(CODE.NOT_FOUND);
    expect(await relation(applicant)).toMatchObject({ kjgcDlsId: null, agencies: [] });
    // The clients came back to the agency; the relation shows as ended on both sides.
    expect((await entList(admin, { kjgcId: ids.newFactory })).data.total).toBe(0);
    expect((await bindings(applicant)).data.list[0]).toMatchObject({ id: bindingId, status: 3, statusName: '已解除' });
    const twice = await t.call(endBindCall.path, { id: bindingId }, admin);
    expect(twice.code).toBe(CODE.CONFLICT);
  });

  it('the factory may end its own relation too (here: withdraw a new request)', async () => {
    const r = await t.call<{ id: number }>(requestBindCall.path, { agencyTax: tax.other }, applicant);
    expect(r.code).toBe(CODE.OK);
    expect((await t.call(endBindCall.path, { id: r.data.id }, applicant)).code).toBe(CODE.OK);
    expect((await bindings(otherAdmin, { status: 0 })).data.total).toBe(0);
  });
});

describe('a factory acting for its agency', () => {
  it("works on the clients handed over but never administers the agency, not even as the factory's administrator", async () => {
    expect(await relation(demoFactory)).toMatchObject({ kjgcDlsId: ids.demo });
    expect((await customers(demoFactory)).data.total).toBeGreaterThan(0);
    // An API key made here would read every client of the agency, past the handover: refused.
    expectNoPermission(
      await t.call(apiKeyCreateCall.path, { name: '工厂密钥', perms: ['customer:list:view'] }, demoFactory),
    );
    expectNoPermission(await t.call(roleListCall.path, {}, demoFactory));
    // The agency's own administrator still may.
    expect((await t.call(roleListCall.path, {}, admin)).code).toBe(CODE.OK);
  });
});

describe('the agency a factory acts for is chosen per session, from the consented bindings', () => {
  const judge = async (cookie: string) =>
    (await t.call<{ show: boolean; targetOrgId: number | null }>(judgeSwitchingButtonCall.path, {}, cookie)).data;
  const ids2 = { binding: 0, factoryUser: 0 };
  let second = '';

  it('a factory bound to two agencies: two sign-ins act for different ones, each seeing only its clients', async () => {
    // 启航 (bound to the demo agency) also asks 鸿信, which accepts and hands one client over.
    const asked = await t.call<{ id: number }>(requestBindCall.path, { agencyTax: tax.other }, demoFactory);
    expect(asked.code).toBe(CODE.OK);
    ids2.binding = asked.data.id;
    expect((await t.call(decideBindCall.path, { id: ids2.binding, accept: true }, otherAdmin)).code).toBe(CODE.OK);
    expect((await t.call(handoverCall.path, { bindingId: ids2.binding, aeiIds: [otherClient] }, otherAdmin)).code).toBe(
      CODE.OK,
    );
    second = await t.login('13700000000');
    const before = (await customers(demoFactory)).data.total;
    expect((await t.call(switchKjgcAgencyCall.path, { agencyId: ids.other }, second)).code).toBe(CODE.OK);
    expect(await relation(second)).toMatchObject({ kjgcDlsId: ids.other });
    expect((await customers(second)).data.list.map((c) => c.id)).toEqual([otherClient]);
    // The first sign-in still acts for the demo agency and does not see 鸿信's client.
    expect(await relation(demoFactory)).toMatchObject({ kjgcDlsId: ids.demo });
    const first = await customers(demoFactory);
    expect(first.data.total).toBe(before);
    expect(first.data.list.map((c) => c.id)).not.toContain(otherClient);
    expect((await bindings(second)).data.list.find((b) => b.current)?.agencyId).toBe(ids.other);
    expect((await bindings(demoFactory)).data.list.find((b) => b.current)?.agencyId).toBe(ids.demo);
  });

  it('judgeSwitchingButton offers the agency the session acts for, read from the bindings', async () => {
    // The factory's user is also a member of both agencies (so either side has a place to switch to).
    const [u] = await t.ownerQuery<{ id: number }>('select id from users where phone = $1', ['13700000000']);
    ids2.factoryUser = u?.id ?? 0;
    for (const org of [ids.demo, ids.other])
      await t.ownerQuery('insert into memberships (agency_id, org_id, user_id) values ($1, $1, $2)', [
        org,
        ids2.factoryUser,
      ]);
    // The legacy column no longer decides: point it elsewhere and nothing changes.
    await t.ownerQuery('update organisations set kjgc_dls_id = null where id = $1', [ids.demoFactory]);
    expect(await judge(second)).toEqual({ show: true, targetOrgId: ids.other, targetName: OTHER });
    expect(await judge(demoFactory)).toEqual({ show: true, targetOrgId: ids.demo, targetName: DEMO });
    // From the agency side: the factory bound to it.
    const agencySide = await t.login('13700000000');
    expect((await t.call(updateSessionUserInfoCall.path, { orgId: ids.demo }, agencySide)).code).toBe(CODE.OK);
    expect(await judge(agencySide)).toMatchObject({ show: true, targetOrgId: ids.demoFactory });
  });

  it('an ended binding moves the session that acted for it to a remaining one at once', async () => {
    expect((await t.call(endBindCall.path, { id: ids2.binding }, otherAdmin)).code).toBe(CODE.OK);
    expect(await relation(second)).toMatchObject({ kjgcDlsId: ids.demo });
    expect((await customers(second)).data.list.map((c) => c.id)).not.toContain(otherClient);
    expect((await t.call(customerDetailCall.path, { id: otherClient }, second)).code).toBe(CODE.NOT_FOUND);
    expect(await judge(second)).toMatchObject({ targetOrgId: ids.demo });
    // Switching back to the ended agency is refused.
    expect((await t.call(switchKjgcAgencyCall.path, { agencyId: ids.other }, second)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('client-owned tables other than enterprises are limited to the clients handed over', () => {
  // demoClients[0] was taken back from 启航 above; demoClients[2] is still handed over to it.
  const made = { hidden: { contract: 0, receivable: 0, charge: 0 }, shown: { contract: 0, receivable: 0, charge: 0 } };

  beforeAll(async () => {
    const [a] = await t.ownerQuery<{ id: number }>('select id from users where phone = $1', ['13800000000']);
    for (const [key, enterpriseId] of [
      ['hidden', demoClients[0]],
      ['shown', demoClients[2]],
    ] as const) {
      const c = await makeContract(t, {
        agencyId: ids.demo,
        enterpriseId: enterpriseId ?? 0,
        userId: a?.id ?? 0,
        periods: [{ due: today(), fen: 50_000 }],
      });
      const charge = await pay(t, admin, { receivableId: c.periodIds[0] ?? 0, amount: '100.00' });
      expect(charge.code).toBe(CODE.OK);
      made[key] = { contract: c.id, receivable: c.periodIds[0] ?? 0, charge: charge.data.id };
    }
  });

  it("a factory session reads the contracts and charges of a handed-over client, never another's", async () => {
    expect((await t.call(contractInfoCall.path, { id: made.shown.contract }, demoFactory)).code).toBe(CODE.OK);
    expect((await t.call(contractInfoCall.path, { id: made.hidden.contract }, demoFactory)).code).toBe(CODE.NOT_FOUND);
    const contracts = await t.call<Page<{ id: number }>>(contractListCall.path, { pageSize: 500 }, demoFactory);
    const contractIds = contracts.data.list.map((c) => c.id);
    expect(contractIds).toContain(made.shown.contract);
    expect(contractIds).not.toContain(made.hidden.contract);
    const charges = (await chargesOf(t, demoFactory)).list.map((c) => c.id);
    expect(charges).toContain(made.shown.charge);
    expect(charges).not.toContain(made.hidden.charge);
    // The agency itself still sees both.
    const agencyCharges = (await chargesOf(t, admin)).list.map((c) => c.id);
    expect(agencyCharges).toEqual(expect.arrayContaining([made.shown.charge, made.hidden.charge]));
    // Writing against a client not handed over is refused and writes nothing.
    const refused = await pay(t, demoFactory, { receivableId: made.hidden.receivable, amount: '1.00' });
    expect(refused.code).not.toBe(CODE.OK);
    const [n] = await t.ownerQuery<{ n: number }>('select count(*)::int as n from charges where receivable_id = $1', [
      made.hidden.receivable,
    ]);
    expect(n?.n).toBe(1);
  });

  it('the database itself refuses the rows, read by id without a join to enterprises', async () => {
    const read = (kjgc: number | null) =>
      inScope(t.db.app, { agencyId: ids.demo, userId: null, kjgcId: null }, async (tx) => {
        await setKjgcScope(tx, kjgc);
        const count = async (table: string, id: number) => {
          const r = await tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where id = ${id}`);
          return (r as unknown as { rows: { n: number }[] }).rows[0]?.n;
        };
        return {
          contracts: [await count('contracts', made.hidden.contract), await count('contracts', made.shown.contract)],
          receivables: [
            await count('receivables', made.hidden.receivable),
            await count('receivables', made.shown.receivable),
          ],
          charges: [await count('charges', made.hidden.charge), await count('charges', made.shown.charge)],
        };
      });
    expect(await read(ids.demoFactory)).toEqual({ contracts: [0, 1], receivables: [0, 1], charges: [0, 1] });
    expect(await read(null)).toEqual({ contracts: [1, 1], receivables: [1, 1], charges: [1, 1] });
  });

  it('every table with a client (enterprise_id) column has the restrictive handover policy', async () => {
    const missing = await t.ownerQuery<{ table_name: string }>(
      `select c.table_name from information_schema.columns c
       join information_schema.tables t on t.table_name = c.table_name and t.table_schema = c.table_schema
       where c.column_name = 'enterprise_id' and c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
         and c.table_name <> 'kjgc_handovers'
         and not exists (select 1 from pg_policies p where p.tablename = c.table_name
           and p.policyname = c.table_name || '_kjgc_handover' and p.permissive = 'RESTRICTIVE')
       order by 1`,
    );
    expect(missing.map((r) => r.table_name)).toEqual([]);
    const [n] = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from pg_policies where right(policyname, 14) = '_kjgc_handover' and permissive = 'RESTRICTIVE'",
    );
    // 40 tables with enterprise_id and 14 keyed by a client-owned parent, at least.
    expect(n?.n).toBeGreaterThanOrEqual(54);
  });
});
