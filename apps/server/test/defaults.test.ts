import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  ADMIN_GRANTED_PERMS,
  benefitTag,
  CODE,
  CONTRACT_WARNING,
  type CustomerItem,
  contractStatusCall,
  customerAssignCall,
  customerDeleteCall,
  customerServiceCall,
  DEFAULT_STAFF_PERMS,
  type EquityFacts,
  equityCheckCall,
  equityDecision,
  gradeSaveCall,
  REVEAL_MSG,
  type RevealLogItem,
  revealCodeCall,
  revealCredentialCall,
  revealLogCall,
  type SaveContractBody,
  saveContractCall,
  selectTemplateByIdCall,
  sessionCall,
  type TemplateDetail,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog, roles } from '../src/db/schema/index.js';
import { addDays, addMonths } from '../src/modules/contract/contract-dates.js';
import { contractWarningsOf } from '../src/modules/contract/contract-status.js';
import { chinaDate } from '../src/plugins/jobs.js';
import { ADMIN, create, ENT, ID, LI, list, OTHER_ADMIN, withDefaultPerms, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';
import { latestSmsCode } from './helpers.js';

/**
 * Issue 12 point 3, defaults that blocked work: a new client inside the quota is covered; a contract
 * created today is not in arrears; 普通员工 holds everyday work only; revealing a credential asks again
 * who you are and why, is limited per hour and audited with the reason.
 */
let t: TestApp;
let admin: string;
let zhang: string;
const REASON = '客户委托本月申报';

beforeAll(async () => {
  // The real limits (the harness otherwise multiplies them by 100).
  t = await startTestApp({ rateLimitFactor: 1 });
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
});
afterAll(() => t.close());

describe('a new client inside the quota is covered', () => {
  it('is not tagged 已到期 and may be stopped and assigned though the agency itself is expired', async () => {
    const r = await create(t, admin, { qymc: '新签约覆盖测试有限公司' });
    expect(r.code, r.msg).toBe(CODE.OK);
    const page = await list(t, admin, { keyword: '新签约覆盖测试' });
    const item = page.list.find((i: CustomerItem) => i.id === r.data.id);
    expect(item?.qyzt).toBe('1');
    // The demo agency's own status is 3 (expired): the row tag is decided by the client's status.
    expect(benefitTag('3', false, item?.qyzt ?? '')).toBeNull();
    const facts = await t.call<EquityFacts>(equityCheckCall.path, { menuid: 2115, aeiIds: [r.data.id] }, admin);
    expect(equityDecision(facts.data, [r.data.id])).toMatchObject({
      error: null,
      proceedIds: [r.data.id],
      dialog: null,
    });
    const stop = await t.call(customerServiceCall.path, { aeiIds: [r.data.id], serviceStatus: '0' }, admin);
    expect(stop.code, stop.msg).toBe(CODE.OK);
    const give = await t.call(customerAssignCall.path, { aeiIds: [r.data.id], userId: ID.li }, admin);
    expect(give.code, give.msg).toBe(CODE.OK);
  });
});

describe('arrears start after the first receivable falls due and the reminder threshold', () => {
  it('a contract created today shows no 合同已欠费; one month on, unpaid, it does', async () => {
    const [tpl] = await t.ownerQuery<{ id: number }>(
      'select id from contract_templates where agency_id = 1 order by id limit 1',
    );
    const template = (await t.call<TemplateDetail>(selectTemplateByIdCall.path, { id: tpl?.id }, admin)).data;
    const today = chinaDate();
    // Demo clients 46-60 have no contracts.
    const aeiId = 47;
    const body: SaveContractBody = {
      aeiId,
      templateId: template.id,
      signDate: today,
      startDate: today,
      endDate: addDays(addMonths(today, 12), -1),
      payCycle: 1,
      lines: template.tempDetailList.map((l) => ({
        serviceId: l.service,
        isGive: l.isGive,
        price: l.price,
        discount: l.discount,
      })),
      submit: true,
    };
    const saved = await t.call<{ id: number }>(saveContractCall.path, body, admin);
    expect(saved.code, saved.msg).toBe(CODE.OK);
    const now = await t.call<{ sfstatus: string; qfys: number; warning: string | null }>(
      contractStatusCall.path,
      { aeiId, ly: 'kh' },
      admin,
    );
    expect(now.data).toMatchObject({ sfstatus: '1', qfys: 0, warning: null });
    // The setting's default is 欠费1个月: nothing until a whole month has passed unpaid.
    const at = (day: string) =>
      inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
        contractWarningsOf(tx, 1, [aeiId], 'kh', day),
      ).then((m) => m.get(aeiId));
    expect(await at(addDays(today, 1))).toMatchObject({ sfstatus: '0', qfys: 0, warning: null });
    expect(await at(addDays(addMonths(today, 1), -1))).toMatchObject({ warning: null });
    expect(await at(addMonths(today, 1))).toMatchObject({ qfys: 1, warning: CONTRACT_WARNING.arrears });
  });
});

describe('普通员工 holds everyday work only', () => {
  it('the default role leaves out the destructive, bulk and credential permissions', async () => {
    const s = await t.call<{ perms: string[] }>(sessionCall.path, {}, zhang);
    for (const p of ADMIN_GRANTED_PERMS) expect(s.data.perms).not.toContain(p);
    for (const p of ['customer:add', 'customer:edit', 'customer:etax:login', 'contract:add', 'fee:charge:add'])
      expect(s.data.perms).toContain(p);
    expect([...s.data.perms].sort()).toEqual([...DEFAULT_STAFF_PERMS].sort());
  });

  it('refuses them with 460 while an administrator may grant them', async () => {
    const own = ENT.zhangOwn;
    const refused = [
      await t.call(customerAssignCall.path, { aeiIds: [own], userId: ID.li }, zhang),
      await t.call(customerServiceCall.path, { aeiIds: [own], serviceStatus: '0' }, zhang),
      await t.call(customerDeleteCall.path, { aeiIds: [own] }, zhang),
      await t.call(gradeSaveCall.path, { name: '员工自建等级' }, zhang),
      await t.call(revealCredentialCall.path, { id: own, reason: REASON, password: 'Demo@2026' }, zhang),
    ];
    expect(refused.map((r) => r.status)).toEqual([460, 460, 460, 460, 460]);
    await withDefaultPerms(t, [...DEFAULT_STAFF_PERMS, 'customer:grade:edit'], async () => {
      expect((await t.call(gradeSaveCall.path, { name: '员工自建等级' }, zhang)).code).toBe(CODE.OK);
    });
  });

  it('the migration trims default roles that still hold an old default set, and leaves customised ones', async () => {
    // The default set as 0016 knew it: today's, less what later migrations give default roles (0017, 0019: 申报; 0020: 发票).
    const LATER = new Set([
      'declare:roster:view',
      'declare:roster:sync',
      'declare:roster:export',
      'declare:overview:view',
      'declare:calendar:view',
      'declare:lbsjc:view',
      'declare:lbsjc:run',
      'declare:setting:view',
      'declare:setting:edit',
      // 0019: 申报计划
      'declare:filing:view',
      'declare:filing:plan',
      'declare:filing:submit',
      'declare:filing:pay',
      'declare:filing:confirm',
      // 0020: 发票's everyday pages and buttons
      'invoice:output:view',
      'invoice:output:issue',
      'invoice:input:view',
      'invoice:input:confirm',
      'invoice:pool:view',
      'invoice:pool:collect',
      'invoice:stats:view',
      // 0022: 账务's everyday pages and buttons
      'account:book:view',
      'account:book:setup',
      'account:book:edit',
      'account:voucher:view',
      'account:voucher:edit',
      'account:voucher:review',
      'account:voucher:delete',
      'account:ledger:view',
      'account:statement:view',
      'account:close:view',
      'account:close:run',
      'account:print:view',
      'account:setting:view',
      'account:setting:edit',
      // 0027: 商务管理's everyday pages and buttons
      'opportunity:list:view',
      'opportunity:add',
      'opportunity:followup',
      'opportunity:transfer',
      'opportunity:release',
      'opportunity:convert',
      'opportunity:pool:view',
      'opportunity:pool:claim',
      'workorder:list:view',
      'workorder:add',
      'workorder:step',
      'workorder:template:view',
      'customer:data:view',
      'customer:data:export',
    ]);
    // Administrator-granted permissions that came after 0016 (发票's 红冲 and 批量开票): no default set held them.
    const NEWER_ADMIN = new Set([
      'customer:grade:edit',
      'invoice:output:red',
      'invoice:output:batch',
      'account:voucher:import',
      'account:close:reverse',
      'account:close:batch',
      'opportunity:delete',
      'opportunity:setting:edit',
      'opportunity:pool:delete',
      'workorder:delete',
      'workorder:import',
      'workorder:template:edit',
      'workorder:template:import',
      'workorder:template:delete',
      // 0032: the audit log viewer (issue 18 point 6)
      'agency:audit:view',
    ]);
    const OLD = [...DEFAULT_STAFF_PERMS, ...ADMIN_GRANTED_PERMS.filter((p) => !NEWER_ADMIN.has(p))].filter(
      (p) => !LATER.has(p),
    );
    const setDefault = (agencyId: number, perms: string[]) =>
      inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
        tx
          .update(roles)
          .set({ perms })
          .where(and(eq(roles.agencyId, agencyId), eq(roles.isDefault, true))),
      );
    const defaultOf = async (agencyId: number) =>
      (
        await t.ownerQuery<{ perms: string[] }>('select perms from roles where agency_id = $1 and is_default', [
          agencyId,
        ])
      )[0]?.perms ?? [];
    await setDefault(1, [...OLD].reverse());
    // Agency 2's administrator had taken 导入客户 away: theirs is customised.
    const custom = OLD.filter((p) => p !== 'customer:import');
    await setDefault(2, custom);
    for (const name of [
      '0016_default_role_everyday.sql',
      '0017_filing_roster.sql',
      '0019_filing_batch.sql',
      '0020_invoices.sql',
      '0022_books.sql',
      '0027_business_perms.sql',
    ]) {
      const file = resolve(import.meta.dirname, '../src/db/migrations', name);
      for (const statement of readFileSync(file, 'utf8').split('--> statement-breakpoint')) {
        // 0017's, 0019's and 0020's tables exist already (the test database is migrated); only its role update is replayed.
        if (/^\s*(--[^\n]*\n\s*)*UPDATE "roles"/.test(statement)) await t.ownerQuery(statement);
        else if (name.startsWith('0016')) await t.ownerQuery(statement);
      }
    }
    expect([...(await defaultOf(1))].sort()).toEqual([...DEFAULT_STAFF_PERMS].sort());
    // Customised: grade management added (it came with customer:edit until now); not a default set, so
    // 0016 trims nothing, and 0017, 0019 and 0020 add the 申报 and 发票 pages to every default role.
    expect([...(await defaultOf(2))].sort()).toEqual([...custom, 'customer:grade:edit', ...LATER].sort());
    await setDefault(2, [...DEFAULT_STAFF_PERMS]);
  });
});

describe('revealing a credential', () => {
  const reveal = (cookie: string, body: Record<string, unknown>) =>
    t.call<{ xdzswj_pass: string }>(revealCredentialCall.path, { id: ENT.adminOwn, ...body }, cookie);

  it('needs a reason of 2-100 characters and the password or an SMS code', async () => {
    for (const reason of [undefined, '', ' 查 ', 'x'.repeat(101)]) {
      const r = await reveal(admin, { reason, password: 'Demo@2026' });
      // The envelope names the field first (原因：…), as for every invalid input.
      expect([r.status, r.msg]).toEqual([400, `原因：${REVEAL_MSG.reason}`]);
    }
    const none = await reveal(admin, { reason: REASON });
    expect([none.status, none.msg]).toEqual([400, REVEAL_MSG.reauth]);
    const wrong = await reveal(admin, { reason: REASON, password: 'Wrong@2026' });
    expect([wrong.status, wrong.msg]).toEqual([400, REVEAL_MSG.wrongPassword]);
    const badCode = await reveal(admin, { reason: REASON, smsCode: '000000' });
    expect(badCode.status).toBe(400);
  });

  it('with the password or a code sent to the caller’s own phone, audited with the reason', async () => {
    const byPassword = await reveal(admin, { reason: REASON, password: 'Demo@2026' });
    expect(byPassword.code, byPassword.msg).toBe(CODE.OK);
    expect(typeof byPassword.data.xdzswj_pass).toBe('string');

    expect((await t.call(revealCodeCall.path, {}, admin)).code).toBe(CODE.OK);
    const code = await latestSmsCode(t, ADMIN);
    const bySms = await reveal(admin, { reason: '核对个税申报密码', smsCode: code });
    expect(bySms.code, bySms.msg).toBe(CODE.OK);
    // A code is good once.
    expect((await reveal(admin, { reason: '再看一次', smsCode: code })).status).toBe(400);

    const audits = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx
        .select()
        .from(auditLog)
        .where(
          and(eq(auditLog.action, 'customer.credential_reveal'), eq(auditLog.target, `enterprise:${ENT.adminOwn}`)),
        ),
    );
    expect(audits.map((a) => [a.userId, a.detail.reason, a.detail.how])).toEqual([
      [ID.admin, REASON, 'password'],
      [ID.admin, '核对个税申报密码', 'sms'],
    ]);
    const log = await t.call<RevealLogItem[]>(revealLogCall.path, { id: ENT.adminOwn }, admin);
    expect(log.data.map((l) => [l.userName, l.reason])).toEqual([
      ['王建国', '核对个税申报密码'],
      ['王建国', REASON],
    ]);
    // Another agency's administrator cannot reach the client or its log.
    const other = await t.login(OTHER_ADMIN);
    expect((await t.call(revealLogCall.path, { id: ENT.adminOwn }, other)).status).toBe(404);
  });

  it('is limited to 20 attempts per user an hour, wrong ones included, with when to try again', async () => {
    const li = await t.login(LI);
    await withDefaultPerms(t, [...DEFAULT_STAFF_PERMS, 'customer:credential:reveal'], async () => {
      const mine = { id: ENT.liOwn, reason: REASON };
      for (let i = 0; i < 19; i++) {
        expect((await t.call(revealCredentialCall.path, { ...mine, password: 'Wrong@2026' }, li)).status).toBe(400);
      }
      expect((await t.call(revealCredentialCall.path, { ...mine, password: 'Demo@2026' }, li)).code).toBe(CODE.OK);
      const over = await t.call<{ retryAfter: number }>(
        revealCredentialCall.path,
        { ...mine, password: 'Demo@2026' },
        li,
      );
      expect(over.status).toBe(429);
      expect(over.msg).toMatch(/^查看账号密码过于频繁（每小时最多20次），请(60|59)分钟后再试$/);
      expect(over.data.retryAfter).toBeGreaterThan(3500);
      // Per user: the administrator is not held up by 李晓梅's attempts.
      expect((await reveal(admin, { reason: REASON, password: 'Demo@2026' })).code).toBe(CODE.OK);
    });
  });
});
