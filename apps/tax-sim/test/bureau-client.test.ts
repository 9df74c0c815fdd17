import {
  addMonths,
  BUREAU_MSG,
  BUSY_TRIES,
  type BureauClient,
  BureauError,
  type EtaxLoginInput,
  filingDeadline,
  httpBureauClient,
  MSG_TYPE,
  stripBrackets,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCENARIO_TAXPAYERS,
  type Scenario,
  SIM_ETAX_PASSWORD,
  SIM_PERSONAL_PASSWORD,
  startTaxSim,
  type TaxSim,
} from '../src/index.js';

// The one bureau client against a real simulator over HTTP: every outcome and message of
// tax-bureau.md §4 and §8 as the batch check and the helper will meet them.

let sim: TaxSim;
let bureau: BureauClient;

const MONEY = /^-?\d+\.\d{2}$/;
const qyshOf = (scenario: Scenario) => {
  const t = SCENARIO_TAXPAYERS.find((s) => s.scenario === scenario);
  if (!t) throw new Error(`no taxpayer for ${scenario}`);
  return t.qysh;
};
const login = (qysh: string, over: Partial<EtaxLoginInput> = {}) =>
  bureau.etaxLogin({ qysh, account: '330106198001010011', password: 'Any@123', sfbm: '1', loginType: '0', ...over });

async function sessionFor(qysh: string): Promise<string> {
  const r = await login(qysh);
  if (r.status !== 1) throw new Error(`login of ${qysh} gave ${JSON.stringify(r)}`);
  return r.session;
}

/** The BureauError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<BureauError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof BureauError) return err;
    throw err;
  }
  throw new Error('expected a BureauError');
}

beforeAll(async () => {
  sim = await startTaxSim();
  bureau = httpBureauClient({ baseUrl: sim.url, timeoutMs: 5_000 });
});
afterAll(async () => {
  await sim.close();
});

describe('e-tax login', () => {
  it('logs a clean taxpayer in, keeps the name it was given, and opens the hall for the session', async () => {
    const qysh = '91330106MA2H3C0X1J';
    const r = await login(qysh, { qymc: '杭州云帆商贸有限公司' });
    expect(r.status).toBe(1);
    const session = r.status === 1 ? r.session : '';
    const info = await bureau.taxpayerInfo(session);
    expect(info).toMatchObject({ qysh, qymc: '杭州云帆商贸有限公司', nsrzt: '正常' });
    expect(info.swjgmc).toContain('浙江省');

    const res = await fetch(bureau.hallUrl(session));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    expect(html).toContain('杭州云帆商贸有限公司');
    expect(html).toContain(qysh);
    expect(html).toContain('我的待办');
  });

  it('logs in through the other bureau login (type 1), and as the agent with the agency tax number', async () => {
    expect((await login(qyshOf('clean'), { loginType: '1' })).status).toBe(1);
    expect((await login(qyshOf('clean'), { sfbm: '97', agentQysh: '91330106MA2H3C0X1J' })).status).toBe(1);
    const noAgent = await login(qyshOf('clean'), { sfbm: '97' });
    expect(noAgent).toMatchObject({
      status: 0,
      msg: BUREAU_MSG.trustedNoAssociation,
      msgType: MSG_TYPE.trustedLoginFailed,
    });
  });

  it('says 用户名与密码不匹配，请修改 for a wrong or empty password, and logs in with the right one', async () => {
    const qysh = qyshOf('mismatch');
    expect(await login(qysh, { password: 'Etax@2025' })).toEqual({
      status: 0,
      msg: '用户名与密码不匹配，请修改',
      mismatch: true,
      msgType: MSG_TYPE.mismatch,
    });
    expect(await login(qyshOf('clean'), { password: '' })).toMatchObject({ status: 0, mismatch: true });
    expect((await login(qysh, { password: SIM_ETAX_PASSWORD })).status).toBe(1);
  });

  it('gives each trusted-login failure its message, without the bureau’s bracketed codes', async () => {
    const cases: [Scenario, string][] = [
      ['noAssociation', BUREAU_MSG.trustedNoAssociation],
      ['unconfirmed', BUREAU_MSG.trustedUnconfirmed],
      ['codeMismatch', BUREAU_MSG.trustedCodeMismatch],
      ['notRegistered', BUREAU_MSG.trustedNotRegistered],
      ['accountError', BUREAU_MSG.trustedAccountError],
    ];
    for (const [scenario, msg] of cases) {
      const r = await login(qyshOf(scenario));
      expect(r, scenario).toEqual({ status: 0, msg, mismatch: false, msgType: MSG_TYPE.trustedLoginFailed });
      expect(r.status === 0 && /[[\]【】]/.test(r.msg)).toBe(false);
    }
    expect(BUREAU_MSG.trustedNoAssociation).toBe('可信登录失败: 未查询到关联关系');
  });

  it('strips square-bracketed text from tax-hall messages', () => {
    expect(stripBrackets('用户名与密码不匹配[E1002]')).toBe('用户名与密码不匹配');
    expect(stripBrackets('【提示】访问频繁，请稍后再试')).toBe('访问频繁，请稍后再试');
  });
});

describe('SMS verification', () => {
  it('asks for a code (30001), sends it, refuses a wrong one and logs in with the right one', async () => {
    const qysh = qyshOf('sms');
    const first = await login(qysh);
    expect(first).toMatchObject({ status: 2, code: '30001' });
    if (first.status !== 2) return;
    expect(first.phoneMasked).toMatch(/^1\d{2}\*{4}\d{4}$/);

    await bureau.sendSms(first.smsTicket);
    const res = await fetch(`${sim.url}/admin/sms?qysh=${qysh}`);
    const sms = ((await res.json()) as { data: { code: string; phone: string } }).data;
    expect(sms.code).toMatch(/^\d{6}$/);
    expect(sms.phone.slice(-4)).toBe(first.phoneMasked.slice(-4));

    const wrong = sms.code === '000000' ? '111111' : '000000';
    expect(await bureau.smsLogin(first.smsTicket, wrong)).toMatchObject({ status: 0, msg: BUREAU_MSG.trustedSmsWrong });
    const ok = await bureau.smsLogin(first.smsTicket, sms.code);
    expect(ok.status).toBe(1);
    if (ok.status === 1) expect((await bureau.taxpayerInfo(ok.session)).qysh).toBe(qysh);
  });

  it('says the code has expired when it is used too late, or was never sent', async () => {
    const quick = await startTaxSim({ smsTtlMs: 50 });
    try {
      const client = httpBureauClient({ baseUrl: quick.url });
      const qysh = qyshOf('sms');
      const r = await client.etaxLogin({ qysh, account: 'a', password: 'p', sfbm: '1', loginType: '0' });
      if (r.status !== 2) throw new Error('expected SMS');
      expect(await client.smsLogin(r.smsTicket, '123456')).toMatchObject({
        status: 0,
        msg: '可信登录失败: 验证码已失效，请重新获取验证码',
        msgType: MSG_TYPE.trustedLoginFailed,
      });
      await client.sendSms(r.smsTicket);
      const code = quick.lastSms(qysh)?.code ?? '';
      await new Promise((ok) => setTimeout(ok, 120));
      expect(await client.smsLogin(r.smsTicket, code)).toMatchObject({ status: 0, msg: BUREAU_MSG.trustedSmsExpired });
    } finally {
      await quick.close();
    }
  });
});

describe('personal-tax login', () => {
  const gs = (scenario: Scenario, password = 'Gs@1234') =>
    bureau.personalTaxLogin({ qysh: qyshOf(scenario), dlfs: '1', dlId: '330106198001010011', password });

  it('logs in with code 0, and refuses each failure with the spec’s message', async () => {
    expect(await gs('clean')).toMatchObject({ ok: true });
    expect(await gs('personalWrong')).toEqual({ ok: false, msg: '个税登录失败：个税密码错误' });
    expect(await gs('personalWrong', SIM_PERSONAL_PASSWORD)).toMatchObject({ ok: true });
    expect(await gs('personalNotSet')).toEqual({ ok: false, msg: '个税登录失败：未设置个税密码' });
    expect(await gs('personalLocked')).toEqual({ ok: false, msg: '个税登录失败：个税密码已锁' });
    expect(await gs('personalTemporary')).toEqual({ ok: false, msg: '个税登录失败：您的密码为临时密码，请修改密码' });
    expect(await gs('deregistered')).toEqual({ ok: false, msg: '个税登录失败: 企业已注销' });
    expect(await gs('clean', '')).toEqual({ ok: false, msg: BUREAU_MSG.personalWrongPassword });
  });

  it('shows a deregistered taxpayer as 注销 once logged in to the e-tax hall', async () => {
    const info = await bureau.taxpayerInfo(await sessionFor(qyshOf('deregistered')));
    expect(info.nsrzt).toBe('注销');
  });
});

describe('busy and faults', () => {
  it(`tries 'too many people' ${BUSY_TRIES} times, then says the busy message`, async () => {
    const qysh = '91330106MA2H3C0X2H';
    sim.faults.set({ busy: BUSY_TRIES - 1 }, qysh);
    expect((await login(qysh)).status).toBe(1); // the 10th try went through
    sim.faults.set({ busy: BUSY_TRIES }, qysh);
    const err = await failure(login(qysh));
    expect(err).toMatchObject({ kind: 'busy', message: '对不起，当前使用该功能的人数过多，请稍候再试' });
    // Exactly BUSY_TRIES replies were used up: the next call goes through at once.
    expect(sim.faults.list().taxpayers[qysh]?.busy).toBeUndefined();
    expect((await login(qysh)).status).toBe(1);
  });

  it('gives a busy taxpayer the busy message after the retries (msg_type 6)', async () => {
    const started = Date.now();
    const err = await failure(login(qyshOf('busy')));
    expect(err.kind).toBe('busy');
    expect(err.message).toBe(BUREAU_MSG.busy);
    expect(Date.now() - started).toBeGreaterThanOrEqual(BUSY_TRIES - 1); // at least 1 ms between tries
  });

  it('maps 访问频繁，请稍后再试 to the busy message without trying again', async () => {
    const qysh = '91330106MA2H3C0X3F';
    const session = await sessionFor(qysh);
    sim.faults.set({ tooFrequent: 2 }, qysh);
    expect(await failure(bureau.taxpayerInfo(session))).toMatchObject({ kind: 'busy', message: BUREAU_MSG.busy });
    expect(sim.faults.list().taxpayers[qysh]?.tooFrequent).toBe(1);
    await failure(bureau.taxpayerInfo(session));
    expect((await bureau.taxpayerInfo(session)).qysh).toBe(qysh);
  });

  it('turns a 5xx into kind unreachable, for the caller to back off and retry', async () => {
    const qysh = '91330106MA2H3C0X4D';
    sim.faults.set({ error5xx: 1 }, qysh);
    expect(await failure(login(qysh))).toMatchObject({ kind: 'unreachable', message: BUREAU_MSG.unreachable });
    expect((await login(qysh)).status).toBe(1);
  });

  it('gives up on a call that hangs after its time-out', async () => {
    const qysh = '91330106MA2H3C0X5B';
    const quick = httpBureauClient({ baseUrl: sim.url, timeoutMs: 300 });
    sim.faults.set({ hang: 1 }, qysh);
    const started = Date.now();
    const err = await failure(quick.etaxLogin({ qysh, account: 'a', password: 'p', sfbm: '1', loginType: '0' }));
    expect(err).toMatchObject({ kind: 'unreachable', message: BUREAU_MSG.timeout });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('says unreachable when nothing listens', async () => {
    const gone = await startTaxSim();
    const url = gone.url;
    await gone.close();
    const err = await failure(
      httpBureauClient({ baseUrl: url }).etaxLogin({
        qysh: 'x',
        account: 'a',
        password: 'p',
        sfbm: '1',
        loginType: '0',
      }),
    );
    expect(err).toMatchObject({ kind: 'unreachable', message: BUREAU_MSG.unreachable });
  });

  it('slows one taxpayer down, and every call with the global latency option', async () => {
    const qysh = '91330106MA2H3C0X69';
    sim.faults.set({ slowMs: 250 }, qysh);
    let started = Date.now();
    expect((await login(qysh)).status).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    sim.faults.clear(qysh);

    const slow = await startTaxSim({ latencyMs: 200 });
    try {
      started = Date.now();
      const r = await httpBureauClient({ baseUrl: slow.url }).etaxLogin({
        qysh,
        account: 'a',
        password: 'p',
        sfbm: '1',
        loginType: '0',
      });
      expect(r.status).toBe(1);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    } finally {
      await slow.close();
    }
  });

  it('switches faults on and off over HTTP too (POST and DELETE /admin/faults)', async () => {
    const post = await fetch(`${sim.url}/admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ busy: 'always' }),
    });
    expect(((await post.json()) as { data: { global: unknown } }).data.global).toEqual({ busy: 'always' });
    expect((await failure(login('91330106MA2H3C0X77'))).kind).toBe('busy');
    await fetch(`${sim.url}/admin/faults`, { method: 'DELETE' });
    expect((await login('91330106MA2H3C0X77')).status).toBe(1);
    const bad = await fetch(`${sim.url}/admin/faults`, { method: 'POST', body: JSON.stringify({ busy: -1 }) });
    expect(bad.status).toBe(400);
  });

  it('reports an expired bureau session as kind session', async () => {
    const qysh = '91330106MA2H3C0X85';
    const session = await sessionFor(qysh);
    expect(sim.expireSessions(qysh)).toBe(1);
    expect(await failure(bureau.todos(session))).toMatchObject({ kind: 'session', message: BUREAU_MSG.sessionExpired });

    const short = await startTaxSim({ sessionTtlMs: 50 });
    try {
      const client = httpBureauClient({ baseUrl: short.url });
      const r = await client.etaxLogin({ qysh, account: 'a', password: 'p', sfbm: '1', loginType: '0' });
      if (r.status !== 1) throw new Error('login failed');
      await new Promise((ok) => setTimeout(ok, 80));
      expect((await failure(client.taxpayerInfo(r.session))).kind).toBe('session');
      const hall = await fetch(client.hallUrl(r.session));
      expect(hall.status).toBe(401);
      expect(await hall.text()).toContain('登录已失效');
    } finally {
      await short.close();
    }
  });
});

describe('tax data', () => {
  it('is the same for the same tax number every time', async () => {
    const qysh = '91440300MA5F8KQ21X';
    const [a, b] = [await sessionFor(qysh), await sessionFor(qysh)];
    expect(await bureau.taxpayerInfo(a)).toEqual(await bureau.taxpayerInfo(b));
    const range = { from: '2024-01-01', to: '2024-12-31' };
    expect(await bureau.filedReturns(a, range)).toEqual(await bureau.filedReturns(b, range));
    expect(await bureau.responsiblePersons(a)).toEqual(await bureau.responsiblePersons(b));
  });

  it('lists officers, registrations with their periods, and a year of filed returns and payments', async () => {
    const session = await sessionFor(qyshOf('clean'));
    const persons = await bureau.responsiblePersons(session);
    expect(persons.map((p) => p.sfbm).sort()).toEqual(['1', '2', '3', '6']);
    expect(persons.find((p) => p.sfbm === '2')?.sfmc).toBe('法定代表人');

    const regs = await bureau.registrations(session);
    const vat = regs.find((r) => r.zsxmMc === '增值税');
    expect(vat && ['06', '08'].includes(vat.nsqx)).toBe(true);
    expect(regs.find((r) => r.zsxmMc === '个人所得税')?.nsqx).toBe('06');

    const range = { from: '2024-01-01', to: '2024-12-31' };
    const filed = await bureau.filedReturns(session, range);
    expect(filed.length).toBeGreaterThan(12); // a year of monthly and quarterly returns
    for (const f of filed) {
      expect(f.sbrq && f.sbrq >= range.from && f.sbrq <= range.to).toBe(true);
      expect(f.ybtse).toMatch(MONEY);
    }
    const paid = await bureau.payments(session, range);
    expect(paid.length).toBeGreaterThan(0);
    for (const p of paid) {
      expect(p.sjje).toMatch(MONEY);
      expect(p.sjje).not.toBe('0.00');
      expect(p.jkrq >= range.from && p.jkrq <= range.to).toBe(true);
    }
  });

  it('pages through long lists (more filed returns than one page of 100)', async () => {
    const session = await sessionFor(qyshOf('clean'));
    const all = await bureau.filedReturns(session, { from: '2019-01-01', to: '2030-12-31' });
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all.map((r) => `${r.zsxmDm}:${r.skssqq}`)).size).toBe(all.length);
  });

  it('shows unfiled VAT returns for an unfiled taxpayer, with their deadlines, and a to-do for each', async () => {
    const session = await sessionFor(qyshOf('unfiled'));
    const unfiled = await bureau.unfiledReturns(session);
    const vat = unfiled.filter((u) => u.zsxmMc === '增值税');
    expect(vat.length).toBe(2);
    // The deadline of the month after the period (the published table or the 15th past a weekend).
    for (const u of vat) expect(u.sbqx).toBe(filingDeadline(addMonths(u.skssqz.slice(0, 7), 1)));
    const todos = await bureau.todos(session);
    expect(todos.filter((t) => t.code === '33001').length).toBe(unfiled.length);
    expect(await bureau.arrears(session)).toEqual([]);
  });

  it('shows arrears with late fees for an arrears taxpayer, and none for a clean one', async () => {
    const owed = await bureau.arrears(await sessionFor(qyshOf('arrears')));
    expect(owed.length).toBeGreaterThan(0);
    for (const a of owed) {
      expect(a.qsje).toMatch(MONEY);
      expect(a.znj).toMatch(MONEY);
      expect(a.overdue).toBe(true);
      expect(Number(a.znj.replace('.', ''))).toBeGreaterThan(0);
    }
    expect(await bureau.arrears(await sessionFor(qyshOf('clean')))).toEqual([]);
  });

  it('gives social insurance by month, or an empty list when the unit has no account (单位社保登录失败)', async () => {
    let withAccount = 0;
    let without = 0;
    for (let i = 0; i < 12; i++) {
      const qysh = `91330106MA2H3D${String(i).padStart(3, '0')}X`;
      const rows = await bureau.socialInsurance(await sessionFor(qysh), { from: '2024-01-01', to: '2024-03-31' });
      if (rows.length === 0) without++;
      else {
        withAccount++;
        expect(new Set(rows.map((r) => r.ssq))).toEqual(new Set(['2024-01', '2024-02', '2024-03']));
        for (const r of rows) expect(r.dwjfje).toMatch(MONEY);
      }
    }
    expect(withAccount).toBeGreaterThan(0);
    expect(without).toBeGreaterThan(0);
  });

  it('rates credit by year (A B M ...)', async () => {
    const session = await sessionFor(qyshOf('clean'));
    const info = await bureau.taxpayerInfo(session);
    const years = ['2022', '2023', '2024'].filter((y) => y >= info.djrq.slice(0, 4));
    const scores = await bureau.creditScores(session, ['2022', '2023', '2024']);
    expect(scores.map((s) => s.pjnd)).toEqual(years);
    for (const s of scores) expect(['A', 'B', 'M', 'C', 'D']).toContain(s.jb);
  });

  it('opens the trusted-login page, which can be framed', async () => {
    const res = await fetch(`${sim.url}/trusted-login?qysh=${qyshOf('clean')}&sfbm=3`);
    expect(res.headers.get('x-frame-options')).toBeNull();
    const html = await res.text();
    expect(html).toContain('可信登录');
    expect(html).toContain(qyshOf('clean'));
    expect(html).toContain("postMessage('登录成功'");
  });
});
