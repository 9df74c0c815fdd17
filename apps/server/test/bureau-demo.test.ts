import { BUREAU_MSG, BureauError, httpBureauClient, MSG_TYPE } from '@dzy/shared';
import { startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ETAX_PASSWORD, DEMO_PERSONAL_PASSWORD, DEMO_SCENARIO_TAXPAYERS } from '../src/db/seed/demo-bureau.js';
import { decrypt } from '../src/lib/crypto.js';
import { startTestApp, type TestApp } from './harness.js';

// The demo agency's 60 clients against the simulated bureau: a realistic mix of outcomes
// (customer.seed.ts, docs/tax-bureau-protocol.md "Scenarios").

let sim: TaxSim;
let t: TestApp;

interface Row extends Record<string, unknown> {
  qysh: string;
  qymc: string;
  login_type: string;
  xdzswj_dlzh: string;
  xdzswj_pass_enc: string;
  xdzswj_sfbm: string;
  agent_login_qysh: string;
  dl_id: string;
  dl_password_enc: string;
  hydqsj: string | null;
}

beforeAll(async () => {
  sim = await startTaxSim();
  t = await startTestApp({ taxBureauUrl: sim.url });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

describe('the demo clients at the simulated bureau', () => {
  it("the platform's copy of the bureau's test taxpayers agrees with what the bureau publishes", async () => {
    const res = await fetch(`${sim.url}/admin/scenarios`);
    const { data: published } = (await res.json()) as {
      data: { taxpayers: { qysh: string; scenario: string }[]; etaxPassword: string; personalPassword: string };
    };
    expect(Object.fromEntries(published.taxpayers.map((t) => [t.scenario, t.qysh]))).toEqual(DEMO_SCENARIO_TAXPAYERS);
    expect([published.etaxPassword, published.personalPassword]).toEqual([DEMO_ETAX_PASSWORD, DEMO_PERSONAL_PASSWORD]);
  });

  it('show clean logins for most, and each failure of the batch check at least once', async () => {
    const bureau = httpBureauClient({ baseUrl: t.config.taxBureauUrl ?? '', busyDelayMs: () => 1 });
    const rows = await t.ownerQuery<Row>(
      `select e.qysh, e.qymc, e.login_type, e.xdzswj_dlzh, e.xdzswj_pass_enc, e.xdzswj_sfbm, e.agent_login_qysh,
              e.dl_id, e.dl_password_enc, e.hydqsj::text as hydqsj
         from enterprises e join organisations o on o.id = e.agency_id
        where o.name = '演示财税代理有限公司' and e.qysh <> '' order by e.id`,
    );
    expect(rows.length).toBe(58);
    const key = t.config.secretKey;
    const outcomes = new Map<number, string[]>();
    const seen = (type: number, qysh: string) => outcomes.set(type, [...(outcomes.get(type) ?? []), qysh]);
    const messages = new Set<string>();
    for (const e of rows) {
      if (!e.xdzswj_dlzh || !e.xdzswj_pass_enc) {
        seen(MSG_TYPE.etaxIncomplete, e.qysh);
        continue;
      }
      if (!e.dl_id || !e.dl_password_enc) {
        seen(MSG_TYPE.personalIncomplete, e.qysh);
        continue;
      }
      try {
        const r = await bureau.etaxLogin({
          qysh: e.qysh,
          qymc: e.qymc,
          account: e.xdzswj_dlzh,
          password: decrypt(key, e.xdzswj_pass_enc),
          sfbm: e.xdzswj_sfbm as '1',
          loginType: e.login_type === '1' ? '1' : '0',
          agentQysh: e.agent_login_qysh || undefined,
        });
        if (r.status === 0) {
          messages.add(r.msg);
          seen(r.msgType ?? MSG_TYPE.trustedLoginFailed, e.qysh);
          continue;
        }
        if (r.status === 2) {
          seen(MSG_TYPE.trustedLoginFailed, e.qysh); // a batch check cannot answer an SMS
          continue;
        }
        const gs = await bureau.personalTaxLogin({
          qysh: e.qysh,
          dlfs: '1',
          dlId: e.dl_id,
          password: decrypt(key, e.dl_password_enc),
        });
        if (!gs.ok) {
          messages.add(gs.msg);
          seen(MSG_TYPE.personalLoginFailed, e.qysh);
          continue;
        }
        seen(MSG_TYPE.success, e.qysh);
      } catch (err) {
        if (!(err instanceof BureauError)) throw err;
        messages.add(err.message);
        seen(MSG_TYPE.busy, e.qysh);
      }
    }
    const count = (type: number) => outcomes.get(type)?.length ?? 0;
    expect(count(MSG_TYPE.success)).toBeGreaterThanOrEqual(45);
    expect(count(MSG_TYPE.etaxIncomplete)).toBe(1);
    expect(count(MSG_TYPE.personalIncomplete)).toBe(1);
    expect(count(MSG_TYPE.mismatch)).toBe(1);
    expect(count(MSG_TYPE.busy)).toBe(1);
    expect(count(MSG_TYPE.trustedLoginFailed)).toBe(2); // no association; SMS required
    expect(count(MSG_TYPE.personalLoginFailed)).toBe(3);
    expect([...messages].sort()).toEqual(
      [
        BUREAU_MSG.mismatch,
        BUREAU_MSG.trustedNoAssociation,
        BUREAU_MSG.busy,
        BUREAU_MSG.personalLocked,
        BUREAU_MSG.personalDeregistered,
        BUREAU_MSG.personalWrongPassword,
      ].sort(),
    );
    // Service expired (msg_type 8) is the product's own check: some clients' membership ran out.
    const today = new Date().toISOString().slice(0, 10);
    expect(rows.some((e) => e.hydqsj !== null && e.hydqsj < today)).toBe(true);

    // Clean clients' data: some have unfiled returns, some arrears.
    const fixed = rows.filter((e) => outcomes.get(MSG_TYPE.success)?.includes(e.qysh));
    let unfiled = 0;
    let owing = 0;
    for (const e of fixed) {
      const r = await bureau.etaxLogin({
        qysh: e.qysh,
        account: e.xdzswj_dlzh,
        password: decrypt(key, e.xdzswj_pass_enc),
        sfbm: '1',
        loginType: '0',
        agentQysh: e.agent_login_qysh || undefined,
      });
      if (r.status !== 1) throw new Error('login failed');
      if ((await bureau.unfiledReturns(r.session)).length > 0) unfiled++;
      if ((await bureau.arrears(r.session)).length > 0) owing++;
    }
    expect(unfiled).toBeGreaterThanOrEqual(1);
    expect(owing).toBeGreaterThanOrEqual(1);
    expect(unfiled + owing).toBeLessThan(fixed.length / 2);
  });
});
