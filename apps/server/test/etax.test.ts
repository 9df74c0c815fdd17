import {
  CODE,
  CONTRACT_WARNING,
  ETAX_MSG,
  type EtaxLoginParams,
  etaxGrantCall,
  helperRedeemCall,
  helperResultCall,
  saveReminderSettingsCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, create, ENT, OTHER_ADMIN, stored, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let admin: string;
let other: string;
let zhang: string;
let entId: number;
let agentEntId: number;

type Grant = { grant: string; expiresIn: number; qymc: string; qysh: string };

async function grantFor(aeiId: number, cookie = admin) {
  return t.call<Grant>(etaxGrantCall.path, { aeiId }, cookie);
}

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  other = await t.login(OTHER_ADMIN);
  zhang = await t.login(ZHANG);
  const made = await create(t, admin, {
    qymc: '杭州测试登录有限公司',
    credentials: { xdzswj_dlzh: '13312345678', xdzswj_pass: 'Etax#Pass1', xdzswj_sfbm: '3', login_type: '0' },
  });
  entId = made.data.id;
  const agent = await create(t, admin, {
    qymc: '杭州代理登录有限公司',
    credentials: {
      xdzswj_sfbm: '97',
      agent_login_account: 'agent01',
      agent_login_password: 'Agent#Pass1',
      agent_login_qysh: '91330106MA27XXXX1A',
      login_type: '1',
    },
  });
  agentEntId = agent.data.id;
});

afterAll(async () => {
  await t?.close();
});

describe('user/etax/helperGrant', () => {
  it('gives a one-time grant bound to the agency, never the password, and audits it', async () => {
    const r = await grantFor(entId);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.grant).toMatch(/^g1\.1\.[A-Za-z0-9_-]{43}$/);
    expect(r.data.expiresIn).toBe(60);
    expect(r.data.qymc).toBe('杭州测试登录有限公司');
    expect(JSON.stringify(r.data)).not.toContain('Etax#Pass1');
    const rows = await t.ownerQuery<{ token_hash: string; user_id: number }>(
      'select token_hash, user_id from etax_login_grants where enterprise_id = $1',
      [entId],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((g) => g.token_hash.includes(r.data.grant))).toBe(false);
    const audits = await t.ownerQuery('select 1 from audit_log where action = $1 and target = $2', [
      'etax.grant',
      `enterprise:${entId}`,
    ]);
    expect(audits.length).toBeGreaterThan(0);
  });

  it('refuses an enterprise without an e-tax account with the check message', async () => {
    const bare = await create(t, admin, { qymc: '杭州未补全账号有限公司' });
    const r = await grantFor(bare.data.id);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    expect(r.msg).toBe(ETAX_MSG.noAccount);
  });

  it("refuses an enterprise the client book's contract reminder blocks (level 2), with its warning", async () => {
    // A new client has no contract: 企业无有效合同 at level 2 (提醒并限制操作) for the client book (kh).
    expect((await t.call(saveReminderSettingsCall.path, { kh_wyxht: 2 }, admin)).code).toBe(CODE.OK);
    const blocked = await grantFor(entId);
    expect([blocked.code, blocked.msg]).toEqual([CODE.CONFLICT, CONTRACT_WARNING.noContract]);
    const grants = await t.ownerQuery('select 1 from etax_login_grants where enterprise_id = $1', [entId]);
    // Level 1 only warns: the login goes on.
    expect((await t.call(saveReminderSettingsCall.path, { kh_wyxht: 1 }, admin)).code).toBe(CODE.OK);
    expect((await grantFor(entId)).code).toBe(CODE.OK);
    const after = await t.ownerQuery('select 1 from etax_login_grants where enterprise_id = $1', [entId]);
    expect(after.length).toBe(grants.length + 1);
  });

  it("refuses another agency's enterprise and one outside the caller's data scope", async () => {
    expect((await grantFor(entId, other)).code).toBe(CODE.NOT_FOUND);
    await withDefaultPerms(t, ['customer:list:view', 'customer:etax:login'], async () => {
      // 张伟 (employee) sees only his own enterprises; the test enterprise is the administrator's.
      expect((await grantFor(entId, zhang)).code).toBe(CODE.NOT_FOUND);
    });
  });

  it('needs customer:etax:login', async () => {
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await grantFor(ENT.zhangOwn, zhang)).code).toBe(CODE.NO_PERMISSION);
    });
  });

  it('validates the body strictly', async () => {
    const r = await t.call(etaxGrantCall.path, { aeiId: 'x' }, admin);
    expect(r.code).toBe(CODE.BAD_REQUEST);
    const extra = await t.call(etaxGrantCall.path, { aeiId: entId, agencyId: 2 }, admin);
    expect(extra.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('helper/redeem', () => {
  it('answers the credentials once, without a session', async () => {
    const { grant } = (await grantFor(entId)).data;
    const r = await t.call<EtaxLoginParams>(helperRedeemCall.path, { grant });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toMatchObject({
      aeiId: entId,
      qymc: '杭州测试登录有限公司',
      account: '13312345678',
      password: 'Etax#Pass1',
      sfbm: '3',
      loginType: '0',
      agentQysh: '',
    });
    const again = await t.call(helperRedeemCall.path, { grant });
    expect(again.code).toBe(CODE.CONFLICT);
    expect(again.msg).toBe(ETAX_MSG.grantUsed);
  });

  it('uses the agent account for identity 97 and the stored login type', async () => {
    const { grant } = (await grantFor(agentEntId)).data;
    const r = await t.call<EtaxLoginParams>(helperRedeemCall.path, { grant });
    expect(r.data).toMatchObject({
      account: 'agent01',
      password: 'Agent#Pass1',
      sfbm: '97',
      loginType: '1',
      agentQysh: '91330106MA27XXXX1A',
    });
  });

  it('refuses a forged, a re-targeted and an expired grant', async () => {
    const { grant } = (await grantFor(entId)).data;
    const forged = `${grant.slice(0, -4)}AAAA`;
    expect((await t.call(helperRedeemCall.path, { grant: forged })).msg).toBe(ETAX_MSG.grantInvalid);
    // The same secret named under another agency finds nothing there.
    const moved = grant.replace(/^g1\.1\./, 'g1.2.');
    expect((await t.call(helperRedeemCall.path, { grant: moved })).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(helperRedeemCall.path, { grant: 'nonsense' })).code).toBe(CODE.NOT_FOUND);
    await t.ownerQuery(
      "update etax_login_grants set expires_at = now() - interval '1 second' where redeemed_at is null",
    );
    const late = await t.call(helperRedeemCall.path, { grant });
    expect(late.code).toBe(CODE.NOT_FOUND);
    expect(late.msg).toBe(ETAX_MSG.grantInvalid);
  });
});

describe('helper/result', () => {
  it('saves isVerifySet 4 on 用户名与密码不匹配, once, and a later success clears it', async () => {
    const { grant } = (await grantFor(entId)).data;
    // Not redeemed yet: nothing to report.
    expect((await t.call(helperResultCall.path, { grant, status: 0, msg: '用户名与密码不匹配，请修改' })).code).toBe(
      CODE.NOT_FOUND,
    );
    await t.call(helperRedeemCall.path, { grant });
    const r = await t.call<{ isVerifySet: string }>(helperResultCall.path, {
      grant,
      status: 0,
      msg: '用户名与密码不匹配，请修改',
    });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.isVerifySet).toBe('4');
    expect((await stored(t, 1, entId))?.isVerifySet).toBe('4');
    // Reported once only.
    expect((await t.call(helperResultCall.path, { grant, status: 1, msg: '' })).code).toBe(CODE.NOT_FOUND);
    expect((await stored(t, 1, entId))?.isVerifySet).toBe('4');

    const next = (await grantFor(entId)).data.grant;
    await t.call(helperRedeemCall.path, { grant: next });
    const ok = await t.call<{ isVerifySet: string }>(helperResultCall.path, { grant: next, status: 1, msg: '' });
    expect(ok.data.isVerifySet).toBe('');
    const audits = await t.ownerQuery<{ detail: { status: number } }>(
      'select detail from audit_log where action = $1 and target = $2 order by id',
      ['etax.login_result', `enterprise:${entId}`],
    );
    expect(audits.map((a) => a.detail.status)).toEqual([0, 1]);
  });

  it('leaves the flag alone on other failures', async () => {
    const { grant } = (await grantFor(entId)).data;
    await t.call(helperRedeemCall.path, { grant });
    const r = await t.call<{ isVerifySet: string }>(helperResultCall.path, {
      grant,
      status: 0,
      msg: '登录身份获取失败',
    });
    expect(r.data.isVerifySet).toBe('');
  });

  it('refuses a status other than 0 or 1', async () => {
    const { grant } = (await grantFor(entId)).data;
    await t.call(helperRedeemCall.path, { grant });
    expect((await t.call(helperResultCall.path, { grant, status: 2, msg: '' })).code).toBe(CODE.BAD_REQUEST);
  });
});
