import {
  CODE,
  type ConfirmSetting,
  FILING_SETTING_MSG,
  filingLogListCall,
  filingSettingListCall,
  SBQR_MSG,
  type SbqrView,
  saveConfirmSettingCall,
  sbqrAnswerCall,
  sbqrGetCall,
  sendSbqrCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSbqrToken, verifySbqrToken } from '../src/modules/filing-confirm/token.js';
import { demoEnterprises } from './declare-check-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

const MONTH = '2026-11';

let t: TestApp;
let admin: string;
let accountant: string;
let other: string;
let planId: number;
/** A: 120.50 of tax and a phone; B: no tax; C: tax but no phone; D: tax and a phone (sent later). */
let A: { id: number; qymc: string };
let B: { id: number; qymc: string };
let C: { id: number; qymc: string };
let D: { id: number; qymc: string };
const PHONE_A = '13912345601';
const PHONE_D = '13912345604';

type Sent = { sent: number; skipped: { aeiId: number; qymc: string; reason: string }[] };

async function addItem(
  enterpriseId: number,
  taxType: string,
  skssqq: string,
  skssqz: string,
  srze: number,
  ybtse: number,
) {
  await t.ownerQuery(
    `insert into filing_plan_items (agency_id, plan_id, enterprise_id, tax_type, cycle, skssqq, skssqz, srze, ybtse, state)
     select agency_id, $2, $1, $3, 'quarter', $4, $5, $6, $7, 'planned' from enterprises where id = $1`,
    [enterpriseId, planId, taxType, skssqq, skssqz, srze, ybtse],
  );
}

async function setPhone(enterpriseId: number, mobile: string | null) {
  await t.ownerQuery(`delete from enterprise_contacts where enterprise_id = $1`, [enterpriseId]);
  if (mobile)
    await t.ownerQuery(
      `insert into enterprise_contacts (agency_id, enterprise_id, name, mobile, is_primary)
       select agency_id, $1, '财务负责人', $2, true from enterprises where id = $1`,
      [enterpriseId, mobile],
    );
}

/** The token of the latest text sent to a phone. */
async function tokenSentTo(phone: string): Promise<string> {
  const [sms] = await t.ownerQuery<{ content: string }>(
    `select content from sms_outbox where phone = $1 order by id desc limit 1`,
    [phone],
  );
  const m = /\/#\/m\/sbqr\?t=([A-Za-z0-9._-]+)/.exec(sms?.content ?? '');
  expect(m, sms?.content).not.toBeNull();
  return m?.[1] ?? '';
}

const itemStates = async (enterpriseId: number) =>
  (
    await t.ownerQuery<{ s: string }>(
      `select confirm_state as s from filing_plan_items where plan_id = $1 and enterprise_id = $2 order by id`,
      [planId, enterpriseId],
    )
  ).map((r) => r.s);

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login('13800000000');
  accountant = await t.login('13800000001');
  other = await t.login('13900000000');
  const ents = (await demoEnterprises(t)).filter((e) => e.qysh);
  [A, B, C, D] = ents.slice(0, 4) as unknown as [typeof A, typeof A, typeof A, typeof A];
  const [plan] = await t.ownerQuery<{ id: number }>(
    `insert into filing_plans (agency_id, user_id, filing_month, kind, state)
     select agency_id, (select id from users where phone = '13800000000'), $2, 'multi', 'ready' from enterprises where id = $1
     returning id`,
    [A.id, MONTH],
  );
  planId = plan?.id ?? 0;
  await addItem(A.id, 'zzs', '2026-07-01', '2026-09-30', 8_000_000, 8_050);
  await addItem(A.id, 'qysds', '2026-07-01', '2026-09-30', 8_000_000, 4_000);
  await addItem(B.id, 'zzs', '2026-07-01', '2026-09-30', 0, 0);
  await addItem(C.id, 'zzs', '2026-07-01', '2026-09-30', 1_000_000, 300);
  await addItem(D.id, 'zzs', '2026-07-01', '2026-09-30', 1_000_000, 300);
  await setPhone(A.id, PHONE_A);
  await setPhone(B.id, '13912345602');
  await setPhone(C.id, null);
  await setPhone(D.id, PHONE_D);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('发送客户确认 (sendSbqr)', () => {
  it('texts the clients with tax and a phone; the others come back with the reason', async () => {
    const r = await t.call<Sent>(sendSbqrCall.path, { planId, aeiIds: [A.id, B.id, C.id] }, admin);
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data.sent).toBe(1);
    expect(r.data.skipped).toEqual([
      { aeiId: B.id, qymc: B.qymc, reason: SBQR_MSG.belowThreshold('0.01') },
      { aeiId: C.id, qymc: C.qymc, reason: SBQR_MSG.noPhone },
    ]);
    expect(await itemStates(A.id)).toEqual(['sent', 'sent']);
    expect(await itemStates(B.id)).toEqual(['none']);
    const [sms] = await t.ownerQuery<{ content: string }>(`select content from sms_outbox where phone = $1`, [PHONE_A]);
    expect(sms?.content).toContain(A.qymc);
    expect(sms?.content).toContain('120.50');
    const claims = verifySbqrToken(t.config.secretKey, await tokenSentTo(PHONE_A));
    expect(claims?.expires).toBeGreaterThan(Date.now() / 1000 + 6.9 * 86400);
    expect(claims?.expires).toBeLessThan(Date.now() / 1000 + 7.1 * 86400);
  });

  it('another agency cannot send for this plan, nor an accountant for clients outside their scope', async () => {
    const r = await t.call(sendSbqrCall.path, { planId, aeiIds: [A.id] }, other);
    expect([r.code, r.msg]).toEqual([CODE.NOT_FOUND, SBQR_MSG.planNotFound]);
    const mine = await t.call(sendSbqrCall.path, { planId, aeiIds: [A.id] }, accountant);
    expect(mine.code).toBe(CODE.NOT_FOUND);
  });
});

describe('客户确认页 (open/sbqr/get, open/sbqr/answer)', () => {
  it('without a session the link shows the company, the period, each tax and the total', async () => {
    const token = await tokenSentTo(PHONE_A);
    const r = await t.call<SbqrView>(sbqrGetCall.path, { t: token });
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      qymc: A.qymc,
      filingMonth: MONTH,
      total: '120.50',
      state: 'sent',
      comment: '',
      answeredAt: null,
    });
    expect(r.data.items).toEqual([
      {
        taxType: 'zzs',
        name: '增值税及附加税费',
        skssqq: '2026-07-01',
        skssqz: '2026-09-30',
        srze: '80000.00',
        ybtse: '80.50',
      },
      {
        taxType: 'qysds',
        name: '企业所得税月(季)度预缴',
        skssqq: '2026-07-01',
        skssqz: '2026-09-30',
        srze: '80000.00',
        ybtse: '40.00',
      },
    ]);
  });

  it('a token with one character changed is 链接无效, anywhere in it', async () => {
    const token = await tokenSentTo(PHONE_A);
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    for (const i of [0, token.indexOf('.') + 1, token.length - 30, token.length - 1]) {
      const r = await t.call(sbqrGetCall.path, { t: flip(token, i) });
      expect([r.code, r.msg], `byte ${i}`).toEqual([CODE.NOT_FOUND, SBQR_MSG.invalid]);
    }
    for (const bad of ['', 'abc', `${token}x`]) {
      const r = await t.call(sbqrGetCall.path, { t: bad });
      expect(r.msg).toBe(SBQR_MSG.invalid);
    }
  });

  it('a token past its expiry is 链接已过期 (also when signed with the server key)', async () => {
    const claims = verifySbqrToken(t.config.secretKey, await tokenSentTo(PHONE_A));
    if (!claims) throw new Error('no claims');
    const past = signSbqrToken(t.config.secretKey, { ...claims, expires: Math.floor(Date.now() / 1000) - 60 });
    const r = await t.call(sbqrGetCall.path, { t: past });
    expect([r.code, r.msg]).toEqual([CODE.NOT_FOUND, SBQR_MSG.expired]);
    const a = await t.call(sbqrAnswerCall.path, { t: past, answer: 'confirmed' });
    expect(a.msg).toBe(SBQR_MSG.expired);
  });

  it('another agency cannot read it: the same confirmation named under another agency is 链接无效', async () => {
    const claims = verifySbqrToken(t.config.secretKey, await tokenSentTo(PHONE_A));
    if (!claims) throw new Error('no claims');
    const [theirs] = await t.ownerQuery<{ agency_id: number }>(
      `select agency_id from memberships m join users u on u.id = m.user_id where u.phone = '13900000000' limit 1`,
    );
    expect(theirs?.agency_id).not.toBe(claims.agencyId);
    const forged = signSbqrToken(t.config.secretKey, { ...claims, agencyId: theirs?.agency_id ?? 0 });
    const r = await t.call(sbqrGetCall.path, { t: forged }, other);
    expect([r.code, r.msg]).toEqual([CODE.NOT_FOUND, SBQR_MSG.invalid]);
    // Another server's key (another deployment) signs nothing this one accepts.
    const foreign = signSbqrToken(Buffer.alloc(32, 7), claims);
    expect((await t.call(sbqrGetCall.path, { t: foreign })).msg).toBe(SBQR_MSG.invalid);
  });

  it('a dispute needs a comment; the first answer stands, a second is refused', async () => {
    const token = await tokenSentTo(PHONE_A);
    const empty = await t.call(sbqrAnswerCall.path, { t: token, answer: 'disputed', comment: '  ' });
    expect(empty.code).toBe(CODE.BAD_REQUEST);
    expect(empty.msg).toContain(SBQR_MSG.commentRequired);
    const r = await t.call<SbqrView>(sbqrAnswerCall.path, {
      t: token,
      answer: 'disputed',
      comment: '三季度有一笔收入已在二季度申报',
    });
    expect(r.code, r.msg).toBe(CODE.OK);
    expect(r.data).toMatchObject({ state: 'disputed', comment: '三季度有一笔收入已在二季度申报' });
    expect(r.data.answeredAt).not.toBeNull();
    expect(await itemStates(A.id)).toEqual(['disputed', 'disputed']);
    const again = await t.call(sbqrAnswerCall.path, { t: token, answer: 'confirmed' });
    expect([again.code, again.msg]).toEqual([CODE.CONFLICT, SBQR_MSG.answered]);
    const shown = await t.call<SbqrView>(sbqrGetCall.path, { t: token });
    expect(shown.data.state).toBe('disputed');
    expect(await itemStates(A.id)).toEqual(['disputed', 'disputed']);
    // The plan's user hears of it in the message centre; the audit log has the answer.
    const [msg] = await t.ownerQuery<{ content: string }>(
      `select content from messages where user_id = (select id from users where phone = '13800000000') order by id desc limit 1`,
    );
    expect(msg?.content).toContain(SBQR_MSG.disputedNotice(A.qymc, MONTH, '三季度有一笔收入已在二季度申报'));
    const [log] = await t.ownerQuery<{ user_id: number | null }>(
      `select user_id from audit_log where action = 'filing.confirm.disputed' order by id desc limit 1`,
    );
    expect(log).toEqual({ user_id: null });
  });

  it('a new link replaces the old one; confirming sets the items', async () => {
    const old = await tokenSentTo(PHONE_A);
    const r = await t.call<Sent>(sendSbqrCall.path, { planId, aeiIds: [A.id] }, admin);
    expect(r.data.sent).toBe(1);
    expect(await itemStates(A.id)).toEqual(['sent', 'sent']);
    expect((await t.call(sbqrGetCall.path, { t: old })).msg).toBe(SBQR_MSG.superseded);
    const fresh = await tokenSentTo(PHONE_A);
    const ok = await t.call<SbqrView>(sbqrAnswerCall.path, { t: fresh, answer: 'confirmed' });
    expect(ok.data.state).toBe('confirmed');
    expect(await itemStates(A.id)).toEqual(['confirmed', 'confirmed']);
  });
});

describe('申报设置：客户确认', () => {
  it('gives the defaults, saves the four settings with a log line, and the threshold applies to sending', async () => {
    const list = await t.call<ConfirmSetting>(filingSettingListCall.path, {}, admin);
    expect(list.data).toMatchObject({
      confirmThreshold: '0.01',
      confirmRequired: false,
      confirmDays: 7,
      diffPercent: 30,
    });
    const body = { confirmThreshold: '200', confirmRequired: true, confirmDays: 3, diffPercent: 50 };
    const r = await t.call<ConfirmSetting>(saveConfirmSettingCall.path, body, admin);
    expect(r.data).toEqual({ ...body, confirmThreshold: '200.00' });
    const again = await t.call<ConfirmSetting>(filingSettingListCall.path, {}, admin);
    expect(again.data).toMatchObject({
      confirmThreshold: '200.00',
      confirmRequired: true,
      confirmDays: 3,
      diffPercent: 50,
    });
    const logs = await t.call<{ list: { actionName: string; detail: string }[] }>(filingLogListCall.path, {}, admin);
    expect(logs.data.list[0]).toMatchObject({
      actionName: '修改客户确认设置',
      detail:
        '客户确认金额：0.01 元 → 200.00 元；申报前须客户确认：否 → 是；确认链接有效期：7 天 → 3 天；变动提示比例：30% → 50%',
    });
    const sent = await t.call<Sent>(sendSbqrCall.path, { planId, aeiIds: [A.id, D.id] }, admin);
    expect(sent.data.skipped).toEqual([
      { aeiId: A.id, qymc: A.qymc, reason: SBQR_MSG.belowThreshold('200.00') },
      { aeiId: D.id, qymc: D.qymc, reason: SBQR_MSG.belowThreshold('200.00') },
    ]);
    await t.call(saveConfirmSettingCall.path, { ...body, confirmThreshold: '3.00' }, admin);
    const d = await t.call<Sent>(sendSbqrCall.path, { planId, aeiIds: [D.id] }, admin);
    expect(d.data.sent).toBe(1);
    const claims = verifySbqrToken(t.config.secretKey, await tokenSentTo(PHONE_D));
    expect(claims?.expires).toBeLessThan(Date.now() / 1000 + 3.1 * 86400);
  });

  it('refuses bad values with their messages, and non-administrators', async () => {
    const ok = { confirmThreshold: '1.00', confirmRequired: false, confirmDays: 7, diffPercent: 30 };
    for (const [field, value, msg] of [
      ['confirmThreshold', '0', FILING_SETTING_MSG.confirmThreshold],
      ['confirmThreshold', '1.234', FILING_SETTING_MSG.confirmThreshold],
      ['confirmThreshold', '-5', FILING_SETTING_MSG.confirmThreshold],
      ['confirmDays', 0, FILING_SETTING_MSG.confirmDays],
      ['confirmDays', 31, FILING_SETTING_MSG.confirmDays],
      ['diffPercent', 0, FILING_SETTING_MSG.diffPercent],
      ['diffPercent', 2.5, FILING_SETTING_MSG.diffPercent],
    ] as const) {
      const r = await t.call(saveConfirmSettingCall.path, { ...ok, [field]: value }, admin);
      expect(r.code, `${field}=${value}`).toBe(CODE.BAD_REQUEST);
      expect(r.msg).toContain(msg);
    }
    const r = await t.call(saveConfirmSettingCall.path, ok, accountant);
    expect(r.code).toBe(CODE.NO_PERMISSION);
  });

  it('a return at or above the threshold is asked about even when a refund brings the client total below it', async () => {
    await t.call(
      saveConfirmSettingCall.path,
      { confirmThreshold: '100.00', confirmRequired: true, confirmDays: 7, diffPercent: 30 },
      admin,
    );
    const ents = (await demoEnterprises(t)).filter((e) => e.qysh);
    const E = ents[4] as { id: number; qymc: string };
    await addItem(E.id, 'zzs', '2026-07-01', '2026-09-30', 2_000_000, 15_000);
    await addItem(E.id, 'qysds', '2026-07-01', '2026-09-30', 2_000_000, -6_000);
    await setPhone(E.id, '13912345605');
    const r = await t.call<Sent>(sendSbqrCall.path, { planId, aeiIds: [E.id] }, admin);
    expect(r.data).toEqual({ sent: 1, skipped: [] });
    const v = await t.call<SbqrView>(sbqrGetCall.path, { t: await tokenSentTo('13912345605') });
    expect(v.data.total).toBe('90.00');
  });
});
