import {
  BUREAU_MSG,
  CHECK_PASSWORD_MSG,
  CODE,
  checkPasswordCall,
  DEFAULT_STAFF_PERMS,
  whitelistByQyshCall,
} from '@dzy/shared';
import { type Scenario, SIM_ETAX_PASSWORD, startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS_PER_HOUR } from '../src/modules/bureau-checks/bureau-checks.routes.js';
import { ADMIN, create, ENT, ID, LI, newUscc, OTHER_ADMIN, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';

/**
 * 可信登录密码校验 (user/jszt/checkPassword) against the real simulated bureau: an account and password
 * typed in the client's form are tried before they are saved, only where the client's province is on
 * the kxdlmmjy white list; nothing is stored but an audit line without the password.
 */

const ON = '330000'; // 浙江: on the kxdlmmjy white list in this file
const OFF = '650000'; // 新疆: on no list
/** A full region (province, city, district) in each province. */
const REGION: Record<string, { sssf: string; ssds: string; ssqx: string }> = {
  [ON]: { sssf: ON, ssds: '330100', ssqx: '330106' },
  [OFF]: { sssf: OFF, ssds: '650100', ssqx: '650102' },
};

let sim: TaxSim;
let t: TestApp;
let admin: string;
let li: string;
let zhang: string;

/** A client of the demo agency in `sssf`, a fresh taxpayer at the simulator behaving as `scenario`. */
async function client(scenario: Scenario, sssf = ON, owner?: number) {
  const qysh = newUscc();
  const qymc = `密码校验${scenario}${qysh.slice(-4)}有限公司`;
  sim.setScenario(qysh, scenario, qymc);
  const r = await create(t, admin, { qysh, qymc, ...REGION[sssf], ...(owner ? { allocate_user: owner } : {}) });
  if (r.code !== CODE.OK) throw new Error(`create ${scenario}: ${r.code} ${r.msg}`);
  return r.data.id;
}

const check = (cookie: string | undefined, body: Record<string, unknown>) =>
  t.call<{ pass: boolean; msg: string }>(checkPasswordCall.path, body, cookie);
const typed = (aeiId: number, kxmm = SIM_ETAX_PASSWORD) => ({ aeiId, dlsf: '1', kxzh: '13312345678', kxmm });

beforeAll(async () => {
  sim = await startTaxSim();
  process.env.TAX_BUREAU_URL = sim.url;
  t = await startTestApp();
  [admin, li, zhang] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG)]);
  await t.ownerQuery(
    `insert into whitelist_orders (type, busi_val) values ('kxdlmmjy', '${ON}') on conflict do nothing`,
  );
  await t.ownerQuery(`delete from whitelist_orders where type = 'kxdlmmjy' and busi_val = '${OFF}'`);
}, 300_000);

afterAll(async () => {
  await t?.close();
  await sim?.close();
  delete process.env.TAX_BUREAU_URL;
});

describe('user/jszt/checkPassword', () => {
  it('passes a right password, refuses a wrong one, and keeps nothing but the audit line', async () => {
    const id = await client('mismatch');
    const ok = await check(admin, typed(id));
    expect(ok.code).toBe(CODE.OK);
    expect(ok.data).toEqual({ pass: true, msg: CHECK_PASSWORD_MSG.pass });
    const wrong = await check(admin, typed(id, 'Wrong@2026'));
    expect(wrong.code).toBe(CODE.OK);
    expect(wrong.data).toEqual({ pass: false, msg: BUREAU_MSG.mismatch });
    // A typed password is a candidate: the client's stored credentials, verify flag and sessions are untouched.
    const [row] = await t.ownerQuery<{ is_verify_set: string; pass: string | null; dlzh: string }>(
      `select is_verify_set, xdzswj_pass_enc as pass, xdzswj_dlzh as dlzh from enterprises where id = ${id}`,
    );
    expect(row?.is_verify_set).not.toBe('4');
    expect(row?.dlzh).toBe('');
    const sessions = await t.ownerQuery(`select 1 from etax_sessions where enterprise_id = ${id}`);
    expect(sessions).toHaveLength(0);
    const audits = await t.ownerQuery<{ detail: Record<string, unknown> }>(
      `select detail from audit_log where action = 'customer.password_check' and target = 'enterprise:${id}' order by id`,
    );
    expect(audits.map((a) => a.detail.pass)).toEqual([true, false]);
    expect(JSON.stringify(audits)).not.toContain(SIM_ETAX_PASSWORD);
    expect(JSON.stringify(audits)).not.toContain('Wrong@2026');
  });

  it('counts an SMS-verified login as a right password and says the bureau`s other refusals', async () => {
    const sms = await check(admin, typed(await client('sms')));
    expect(sms.data).toEqual({ pass: true, msg: CHECK_PASSWORD_MSG.passSms });
    const unregistered = await check(admin, typed(await client('notRegistered')));
    expect(unregistered.code).toBe(CODE.OK);
    expect(unregistered.data.pass).toBe(false);
    expect(unregistered.data.msg).toContain('未注册');
  });

  it('tries an agent login with the agency`s tax number', async () => {
    const id = await client('clean');
    expectBadInput(await check(admin, { ...typed(id), dlsf: '97' }), '代理机构税号', CHECK_PASSWORD_MSG.agentQysh);
    const agent = await check(admin, { ...typed(id), dlsf: '97', dljgsh: newUscc() });
    expect(agent.code).toBe(CODE.OK);
    expect(agent.data.pass).toBe(true);
  });

  it('runs only where the client`s province is on the kxdlmmjy white list', async () => {
    const off = await check(admin, typed(await client('clean', OFF)));
    expect(off.code).toBe(CODE.NO_PERMISSION);
    expect(off.msg).toBe('该企业所在省份未开通可信登录密码校验');
  });

  it('refuses another agency`s client, one outside the data scope, a member without 编辑客户, and no session', async () => {
    expect((await check(admin, typed(ENT.otherAgency))).code).toBe(CODE.NOT_FOUND);
    const otherAdmin = await t.login(OTHER_ADMIN);
    const mine = await client('clean');
    expect((await check(otherAdmin, typed(mine))).code).toBe(CODE.NOT_FOUND);
    // 张伟 (an employee) reaches only his own clients; 2 is 李晓梅's.
    const lisClient = await client('clean', ON, ID.li);
    expect((await check(zhang, typed(lisClient))).code).toBe(CODE.NOT_FOUND);
    expect((await check(li, typed(lisClient))).code).toBe(CODE.OK);
    await withDefaultPerms(
      t,
      DEFAULT_STAFF_PERMS.filter((p) => p !== 'customer:edit'),
      async () => expectNoPermission(await check(zhang, typed(ENT.zhangOwn))),
    );
    expectSignedOut(await check(undefined, typed(mine)));
    const noTax = await check(admin, typed(ENT.liNoTax));
    expect(noTax.code).toBe(CODE.BAD_REQUEST);
    expect(noTax.msg).toBe(CHECK_PASSWORD_MSG.noTaxNumber);
  });

  it('says the bureau is busy, and limits each person to CHECKS_PER_HOUR tries an hour', async () => {
    const busy = await check(admin, typed(await client('busy')));
    expect(busy.code).toBe(CODE.TOO_MANY);
    expect(busy.msg).toBe(BUREAU_MSG.busy);
    // 李晓梅 has used up her hour (her earlier tries count too); 王建国 still may check.
    await t.ownerQuery(
      `insert into audit_log (agency_id, user_id, action, target)
       select 1, ${ID.li}, 'customer.password_check', 'enterprise:0' from generate_series(1, ${CHECKS_PER_HOUR})`,
    );
    const mine = await client('clean', ON, ID.li);
    const limited = await check(li, typed(mine));
    expect(limited.code).toBe(CODE.TOO_MANY);
    expect(limited.msg).toBe(CHECK_PASSWORD_MSG.tooMany);
    expect((await check(admin, typed(mine))).data.pass).toBe(true);
  });

  it('refuses bad input with Chinese messages', async () => {
    const id = ENT.adminOwn;
    expectBadInput(await check(admin, { ...typed(id), kxzh: '  ' }), '账号', '请输入账号');
    expectBadInput(await check(admin, { ...typed(id), kxmm: '' }), '密码', '请输入密码');
    expectBadInput(await check(admin, { ...typed(id), dlsf: '5' }), '登录身份', '登录身份须为 1、2、3、6 或 97');
    expectBadInput(await check(admin, { ...typed(id), aeiId: 0 }), '代理企业ID', '请选择企业');
    expectUnknownField(await check(admin, { ...typed(id), qysh: '91330106MA0000000X' }), 'qysh');
  });
});

describe('user/newTaxBureau/getWhitelistByQysh', () => {
  type Lists = { aeiId: number; qysh: string; province: string; lists: string[]; kxdlmmjy: boolean };
  const lists = (cookie: string | undefined, body: Record<string, unknown>) =>
    t.call<Lists>(whitelistByQyshCall.path, body, cookie);
  const qyshOf = async (id: number) =>
    (await t.ownerQuery<{ qysh: string }>(`select qysh from enterprises where id = ${id}`))[0]?.qysh ?? '';

  it('tells whether the client`s province has the password check, with the lists that apply', async () => {
    const on = await client('clean', ON);
    const r = await lists(admin, { qysh: await qyshOf(on) });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({ aeiId: on, province: ON, kxdlmmjy: true });
    expect(r.data.lists).toContain('kxdlmmjy');
    const off = await client('clean', OFF);
    // Typed in lower case with spaces, as people paste tax numbers.
    const typedQysh = ` ${(await qyshOf(off)).toLowerCase()} `;
    const o = await lists(admin, { qysh: typedQysh });
    expect(o.data).toMatchObject({ aeiId: off, province: OFF, kxdlmmjy: false });
    expect(o.data.lists).not.toContain('kxdlmmjy');
  });

  it('refuses a tax number outside the agency or the data scope, bad input and no session', async () => {
    const foreign = await lists(admin, { qysh: await qyshOf(ENT.otherAgency) });
    expect(foreign.code).toBe(CODE.NOT_FOUND);
    expect(foreign.msg).toBe('未找到该税号的客户');
    expect((await lists(zhang, { qysh: await qyshOf(ENT.liOwn) })).code).toBe(CODE.NOT_FOUND);
    expect((await lists(li, { qysh: await qyshOf(ENT.liOwn) })).code).toBe(CODE.OK);
    expectBadInput(await lists(admin, { qysh: '' }), '企业税号');
    expectUnknownField(await lists(admin, { qysh: await qyshOf(ENT.adminOwn), agencyId: 2 }), 'agencyId');
    expectSignedOut(await lists(undefined, { qysh: await qyshOf(ENT.adminOwn) }));
  });
});
