import {
  CODE,
  type CustomerItem,
  contactListCall,
  customerCreateCall,
  customerDetailCall,
  customerListCall,
  customerUpdateCall,
  MSG,
  revealCredentialCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog } from '../src/db/schema/index.js';
import { createCipher, decrypt, mask } from '../src/lib/crypto.js';
import {
  ADMIN,
  create,
  detail,
  ENT,
  ID,
  LI,
  list,
  newUscc,
  OTHER_ADMIN,
  stored,
  withDefaultPerms,
  ZHANG,
} from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

/** What a reveal needs besides the id: a reason and the caller's own password (the demo one). */
const REVEAL = { reason: '核对申报账号', password: 'Demo@2026' };

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
});
afterAll(() => t.close());

describe('crypto (lib/crypto.ts)', () => {
  const key = Buffer.alloc(32, 7);
  it('round-trips, uses a fresh IV each time, and refuses a changed blob or another key', () => {
    const c = createCipher(key);
    const a = c.encrypt('Secret#123');
    const b = c.encrypt('Secret#123');
    expect(a).not.toBe(b);
    expect(a.startsWith('v1:')).toBe(true);
    expect(c.decrypt(a)).toBe('Secret#123');
    expect(c.encrypt('')).toBe('');
    const raw = Buffer.from(a.slice(3), 'base64');
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => c.decrypt(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => createCipher(Buffer.alloc(32, 8)).decrypt(a)).toThrow();
  });
  it('masks long values as first 3, ****, last 4 and short ones as stars', () => {
    expect(mask('91330106MA2H3C0X1X')).toBe('913****0X1X');
    expect(mask('abc1234')).toBe('*******');
    expect(mask('')).toBe('');
  });
});

describe('list (queryAgencyUserEnterpriseV3)', () => {
  it('an administrator sees the whole book, a department head the department, an employee their own', async () => {
    expect((await list(t, admin)).total).toBe(60);
    const mine = await list(t, zhang);
    expect(mine.total).toBe(20);
    expect(mine.list.every((e) => e.allocate_user === ID.zhang)).toBe(true);
    const dept = await list(t, li);
    expect(dept.total).toBe(40);
    expect(new Set(dept.list.map((e) => e.allocate_user))).toEqual(new Set([ID.li, ID.zhang]));
    expect((await list(t, other)).total).toBe(20);
  });

  it('filters by name or tax number, nature, owner, benefit status, label and grade', async () => {
    const all = (await list(t, admin)).list;
    const sample = all.find((e) => e.qysh) as CustomerItem;
    const byName = await list(t, admin, { keyword: sample.qymc.slice(0, 6) });
    expect(byName.list.some((e) => e.id === sample.id)).toBe(true);
    const byTax = await list(t, admin, { keyword: sample.qysh.slice(4, 14) });
    expect(byTax.list.map((e) => e.id)).toContain(sample.id);
    const general = await list(t, admin, { qyxz: '0' });
    expect(general.list.every((e) => e.qyxz === '0')).toBe(true);
    expect(general.total).toBe(all.filter((e) => e.qyxz === '0').length);
    expect((await list(t, admin, { allocateUser: ID.li })).total).toBe(20);
    const expiring = await list(t, admin, { benefitStatus: 'expiring' });
    expect(expiring.total).toBe(10);
    expect(expiring.list.every((e) => e.qyzt === '2')).toBe(true);
    const expired = await list(t, admin, { benefitStatus: 'expired' });
    expect(expired.list.every((e) => ['0', '3', ''].includes(e.qyzt))).toBe(true);
    expect(expired.total).toBe(20);
    const labelled = all.find((e) => e.labels.length > 0) as CustomerItem;
    const label = labelled.labels[0] as { id: number };
    const byLabel = await list(t, admin, { labelId: label.id });
    expect(byLabel.list.every((e) => e.labels.some((l) => l.id === label.id))).toBe(true);
    const graded = all.find((e) => e.gradeId !== null) as CustomerItem;
    const byGrade = await list(t, admin, { gradeId: graded.gradeId });
    expect(byGrade.list.every((e) => e.gradeId === graded.gradeId)).toBe(true);
    const stopped = await list(t, admin, { serviceStatus: '0' });
    expect(stopped.list.every((e) => e.serviceStatus === '0')).toBe(true);
    expect(stopped.total).toBeGreaterThan(0);
  });

  it('sorts by name and pages without overlap; sizes are 20, 50, 100, 500', async () => {
    const byName = await list(t, admin, { sortField: 'qymc', sortOrder: 'ascend' });
    const names = byName.list.map((e) => e.qymc);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const p1 = await list(t, admin, { pageSize: 20, pageNo: 1 });
    const p2 = await list(t, admin, { pageSize: 20, pageNo: 2 });
    const p3 = await list(t, admin, { pageSize: 20, pageNo: 3 });
    const ids = [...p1.list, ...p2.list, ...p3.list].map((e) => e.id);
    expect(new Set(ids).size).toBe(60);
    expect(p1.list[0]?.id).toBeGreaterThan(p1.list[1]?.id ?? 0);
    const past = await list(t, admin, { pageSize: 20, pageNo: 9 });
    expect(past).toEqual({ list: [], total: 60, cursor: { next: null, prev: null } });
    const bad = await t.call(customerListCall.path, { pageSize: 30 }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
    expect(bad.msg).toBe('每页条数：每页条数须为20、50、100或500');
  });

  it('rows carry region names, grade, labels, owner and contact', async () => {
    const [row] = (await list(t, admin, { keyword: '' })).list.filter((e) => e.id === ENT.adminOwn);
    const e = row ?? (await list(t, admin)).list.find((x) => x.id === ENT.adminOwn);
    expect(e?.allocateUserName).toBe('王建国');
    expect(e?.regionName).toMatch(/省|市/);
    expect(e?.contactName).not.toBe('');
  });

  it('refuses without a session, without the permission, and with unknown fields', async () => {
    const anon = await t.call(customerListCall.path, {});
    expect(anon.status).toBe(403);
    const unknown = await t.call(customerListCall.path, { agencyId: 2 }, admin);
    expect(unknown.code).toBe(CODE.BAD_REQUEST);
    await withDefaultPerms(t, [], async () => {
      const denied = await t.call(customerListCall.path, {}, zhang);
      expect(denied.status).toBe(460);
      expect(denied.msg).toBe(MSG.noPermission);
    });
  });
});

describe('detail (selectAgencyEnterpriseInfo)', () => {
  it('shows an enterprise in scope and 404s one out of scope or of another agency', async () => {
    const d = await detail(t, zhang, ENT.zhangOwn);
    expect(d.id).toBe(ENT.zhangOwn);
    expect(d.contacts.length).toBe(1);
    // 张伟 asking for 李晓梅's enterprise, and anyone asking for another agency's.
    const outOfScope = await t.call(customerDetailCall.path, { id: ENT.liOwn }, zhang);
    expect(outOfScope.status).toBe(404);
    const otherAgency = await t.call(customerDetailCall.path, { id: ENT.otherAgency }, admin);
    expect(otherAgency.status).toBe(404);
    expect(otherAgency.msg).toBe(outOfScope.msg);
    const bad = await t.call(customerDetailCall.path, { id: 'x' }, admin);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('create and edit', () => {
  it('creates with contacts, shareholders, labels, grade, region and credentials stored encrypted and shown masked', async () => {
    const qysh = newUscc();
    const r = await create(t, zhang, {
      qymc: '杭州云帆科技有限公司',
      qysh: ` ${qysh.slice(0, 9)} ${qysh.slice(9)} `,
      qyxz: '0',
      sssf: '330000',
      ssds: '330100',
      ssqx: '330106',
      address: '文三路 100 号',
      fjh: '1',
      contacts: [
        { name: '李会计', mobile: '13912345678', isPrimary: true },
        { name: '王出纳', landline: '0571-88886666' },
      ],
      shareholders: [
        { name: '张三', share: 60 },
        { name: '李四', share: 40 },
      ],
      credentials: {
        xdzswj_dlzh: '330106199001011234',
        xdzswj_pass: 'Etax#Pass2026',
        xdzswj_sfbm: '1',
        dlfs: '2',
        dl_id: 'zhangsan_gs',
        dl_password: 'Gs@123456',
        report_password: '778899',
        agent_login_account: 'agent001',
        agent_login_password: 'Agent@8888',
        agent_login_qysh: '91330106MA2H3C0X1X',
      },
    });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.warning).toBeNull();
    const d = await detail(t, zhang, r.data.id);
    expect(d.qysh).toBe(qysh);
    expect(d.allocate_user).toBe(ID.zhang);
    expect(d.regionName).toBe('浙江省 杭州市 西湖区');
    expect(d.contacts.map((c) => [c.name, c.isPrimary])).toEqual([
      ['李会计', true],
      ['王出纳', false],
    ]);
    expect(d.shareholders.map((s) => s.share)).toEqual([60, 40]);
    expect(d.credentials.xdzswj_dlzh).toBe('330****1234');
    expect(d.credentials.xdzswj_pass).toBe('******');
    expect(d.credentials.dl_password).toBe('******');
    expect(d.credentials.report_password).toBe('******');
    expect(d.credentials.agent_login_account).toBe('age****t001');
    expect(JSON.stringify(d)).not.toContain('Etax#Pass2026');

    const row = await stored(t, 1, r.data.id);
    expect(row?.xdzswjPassEnc.startsWith('v1:')).toBe(true);
    expect(row?.xdzswjPassEnc).not.toContain('Etax');
    expect(decrypt(t.config.secretKey, row?.xdzswjPassEnc ?? '')).toBe('Etax#Pass2026');

    // Reveal (the administrator, who holds the permission): the clear values, and an audit record every time.
    const shown = await t.call<{ xdzswj_pass: string; dl_id: string }>(
      revealCredentialCall.path,
      { id: r.data.id, ...REVEAL },
      admin,
    );
    expect(shown.data.xdzswj_pass).toBe('Etax#Pass2026');
    expect(shown.data.dl_id).toBe('zhangsan_gs');
    await t.call(revealCredentialCall.path, { id: r.data.id, ...REVEAL }, admin);
    const audits = await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, (tx) =>
      tx
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'customer.credential_reveal'), eq(auditLog.target, `enterprise:${r.data.id}`))),
    );
    expect(audits.length).toBe(2);
    expect(audits[0]?.userId).toBe(ID.admin);
    expect(audits[0]?.detail).toMatchObject({ reason: REVEAL.reason });
  });

  it('reveal needs the permission, the scope and the tenant', async () => {
    const anon = await t.call(revealCredentialCall.path, { id: ENT.adminOwn, ...REVEAL });
    expect(anon.status).toBe(403);
    expect((await t.call(revealCredentialCall.path, { id: ENT.otherAgency, ...REVEAL }, admin)).status).toBe(404);
    // 普通员工 does not hold it by default; granted, their scope still holds.
    expect((await t.call(revealCredentialCall.path, { id: ENT.zhangOwn, ...REVEAL }, zhang)).status).toBe(460);
    await withDefaultPerms(t, ['customer:list:view', 'customer:credential:reveal'], async () => {
      expect((await t.call(revealCredentialCall.path, { id: ENT.liOwn, ...REVEAL }, zhang)).status).toBe(404);
    });
  });

  it('an edit that leaves a credential out keeps it; an empty one clears it', async () => {
    const r = await create(t, admin, { credentials: { xdzswj_pass: 'Keep#Me1', dl_password: 'Clear#Me1' } });
    const d = await detail(t, admin, r.data.id);
    const u = await t.call(
      customerUpdateCall.path,
      {
        id: r.data.id,
        qymc: d.qymc,
        qysh: d.qysh,
        credentials: { dl_password: '' },
      },
      admin,
    );
    expect(u.code).toBe(CODE.OK);
    const row = await stored(t, 1, r.data.id);
    expect(decrypt(t.config.secretKey, row?.xdzswjPassEnc ?? '')).toBe('Keep#Me1');
    expect(row?.dlPasswordEnc).toBe('');
  });

  it('warns about a wrong check character of an 18-character code but saves', async () => {
    const good = newUscc();
    const last = good.charAt(17);
    const wrong = good.slice(0, 17) + (last === '0' ? '1' : '0');
    const r = await create(t, admin, { qysh: wrong });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.warning).toBe('统一社会信用代码校验位不正确，请核对税号');
  });

  it('refuses a duplicate tax number in the agency, naming the enterprise; another agency may have it', async () => {
    const d = await detail(t, admin, ENT.adminOwn);
    const dup = await create(t, admin, { qysh: d.qysh.toLowerCase() });
    expect(dup.status).toBe(409);
    expect(dup.msg).toBe(`该税号的企业已存在：${d.qymc}`);
    const elsewhere = await create(t, other, { qysh: d.qysh });
    expect(elsewhere.code).toBe(CODE.OK);
  });

  it('validates with clear messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ qymc: '' }, '企业名称：请输入企业名称'],
      [{ qysh: '12345' }, '企业税号：税号为6-20位数字或字母'],
      [{ qysh: '' }, '企业税号：请输入企业税号'],
      [{ qysh: '123456789012345678901' }, '企业税号：税号为6-20位数字或字母'],
      [{ contacts: [{ name: '甲', mobile: '12345' }] }, '手机号：请输入正确的手机号'],
      [{ contacts: [{ name: '甲', landline: '12345' }] }, '座机：请输入正确的座机号码'],
      [
        {
          shareholders: [
            { name: '甲', share: 60 },
            { name: '乙', share: 40.01 },
          ],
        },
        '股东：股东持股比例合计不能超过100%',
      ],
      [{ shareholders: [{ name: '甲', share: 10.123 }] }, '持股比例：持股比例最多两位小数'],
      [{ fjh: 'ab' }, '开票分机号：开票分机号为0-4位数字'],
      [{ credentials: { dlfs: '3' } }, '个税登录方式：'],
    ];
    for (const [patch, msg] of cases) {
      const r = await create(t, admin, patch);
      expect(r.code, JSON.stringify(patch)).toBe(CODE.BAD_REQUEST);
      expect(r.msg.startsWith(msg), `${r.msg} / ${msg}`).toBe(true);
    }
    const region = await create(t, admin, { sssf: '330000', ssds: '330100', ssqx: '110101' });
    expect(region.msg).toBe('所属地区：地区编码有误');
    const partial = await create(t, admin, { sssf: '330000' });
    expect(partial.msg).toBe('所属地区：请选择完整的省、市、区县');
  });

  it('refuses another agency’s grade or label, a non-member owner, and giving to others without 分配客户', async () => {
    const otherLabels = await t.call<{ id: number }[]>('user/label/list', {}, other);
    const foreignLabel = otherLabels.data[0]?.id as number;
    expect((await create(t, admin, { labelIds: [foreignLabel] })).status).toBe(404);
    const otherGrades = await t.call<{ id: number }[]>('user/grade/list', {}, other);
    expect((await create(t, admin, { gradeId: otherGrades.data[0]?.id })).status).toBe(404);
    expect((await create(t, admin, { allocate_user: ID.otherAdmin })).status).toBe(404);
    await withDefaultPerms(t, ['customer:list:view', 'customer:add'], async () => {
      expect((await create(t, zhang, { allocate_user: ID.li })).status).toBe(460);
      expect((await create(t, zhang)).code).toBe(CODE.OK);
    });
  });

  it('edit: in scope only, another agency’s id is a 404 and nothing changes', async () => {
    const d = await detail(t, admin, ENT.liOwn);
    const body = { id: ENT.liOwn, qymc: `${d.qymc}（改）`, qysh: d.qysh, qyxz: d.qyxz };
    expect((await t.call(customerUpdateCall.path, body, zhang)).status).toBe(404);
    const foreign = await t.call(customerUpdateCall.path, { ...body, id: ENT.otherAgency }, admin);
    expect(foreign.status).toBe(404);
    const ok = await t.call(customerUpdateCall.path, body, li);
    expect(ok.code).toBe(CODE.OK);
    expect((await detail(t, admin, ENT.liOwn)).qymc).toBe(`${d.qymc}（改）`);
    const otherRow = await stored(t, 2, ENT.otherAgency);
    expect(otherRow?.qymc).not.toContain('（改）');
  });

  it('contacts of an enterprise (getContactList)', async () => {
    const r = await t.call<unknown[]>(contactListCall.path, { enterpriseId: ENT.zhangOwn }, zhang);
    expect(r.data.length).toBe(1);
    expect((await t.call(contactListCall.path, { enterpriseId: ENT.liOwn }, zhang)).status).toBe(404);
  });

  it('creating needs the permission and a session', async () => {
    expect((await t.call(customerCreateCall.path, { qymc: 'x', qysh: newUscc() })).status).toBe(403);
    await withDefaultPerms(t, ['customer:list:view'], async () => {
      expect((await create(t, zhang)).status).toBe(460);
      expect(
        (await t.call(customerUpdateCall.path, { id: ENT.zhangOwn, qymc: 'x', qysh: newUscc() }, zhang)).status,
      ).toBe(460);
    });
  });

  it('refuses beyond the licensed number of customers', async () => {
    // The demo agency is licensed for 200; fill it up to the limit in its scope, then one more is refused.
    const count = (await list(t, admin, { pageSize: 20 })).total;
    await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, async (tx) => {
      const { organisations } = await import('../src/db/schema/index.js');
      await tx.execute(
        (await import('drizzle-orm')).sql`update ${organisations} set licence_customers = ${count} where id = 1`,
      );
    });
    try {
      const r = await create(t, admin);
      expect(r.status).toBe(400);
      expect(r.msg).toBe(`客户数已达授权上限（${count}家），请联系客户经理扩容`);
    } finally {
      await inScope(t.db.app, { agencyId: 1, userId: null, kjgcId: null }, async (tx) => {
        await tx.execute(
          (await import('drizzle-orm')).sql`update organisations set licence_customers = 200 where id = 1`,
        );
      });
    }
  });
});
