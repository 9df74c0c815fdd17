import { usccCheckChar } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { seedKjgcDemo } from '../../modules/org/kjgc.seed.js';
import { addMember, provisionAgency } from '../../modules/org/provision.js';
import { hashPassword } from '../../plugins/password.js';
import type { Db } from '../client.js';
import { departments, enterprises, organisations, users, whitelistOrders } from '../schema/index.js';
import { generateEnterprises } from './demo-data.js';

export const DEMO_PASSWORD = 'Demo@2026';
export const DEMO_AGENCY = '演示财税代理有限公司';

export const DEMO_ACCOUNTS = [
  { phone: '13800000000', who: `${DEMO_AGENCY} 管理员` },
  { phone: '13800000001', who: `${DEMO_AGENCY} 会计` },
  { phone: '13800000002', who: `${DEMO_AGENCY} 会计` },
  { phone: '13900000000', who: '鸿信财务咨询有限公司 管理员（另一家代理机构）' },
  { phone: '13700000000', who: '启航会计工厂（绑定演示代理机构）' },
  { phone: '13600000000', who: '平台运营（审核代理机构入驻申请）' },
] as const;

const uscc = (first17: string) => first17 + usccCheckChar(first17);

type OrgRow = typeof organisations.$inferInsert;

async function addOrg(db: Db, org: OrgRow) {
  const [row] = await db.insert(organisations).values(org).returning({ id: organisations.id });
  if (!row) throw new Error(`could not create ${org.name}`);
  return row.id;
}

async function addUser(db: Db, phone: string, hymc: string, zw: string, passwordHash: string) {
  const [row] = await db.insert(users).values({ phone, hymc, zw, passwordHash }).returning({ id: users.id });
  if (!row) throw new Error(`could not create ${phone}`);
  return row.id;
}

/** Inserts enterprises in batches, assigned round-robin to the given staff. */
export async function addEnterprises(db: Db, agencyId: number, count: number, seed: number, staff: number[]) {
  const rows = generateEnterprises(count, seed).map((e, i) => ({
    agencyId,
    qymc: e.qymc,
    qysh: e.qysh,
    qyxz: e.qyxz,
    sssf: e.sssf,
    ssds: e.ssds,
    ssqx: e.ssqx,
    address: e.address,
    allocateUser: staff.length ? staff[i % staff.length] : null,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.insert(enterprises).values(rows.slice(i, i + 1000));
}

/** The demo agencies, people and clients. Runs as the owner; does nothing when the demo agency exists. */
export async function seedDemo(db: Db, secretKey?: Buffer): Promise<boolean> {
  const [exists] = await db.select().from(organisations).where(eq(organisations.name, DEMO_AGENCY)).limit(1);
  if (exists) return false;
  const hash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const agency = await addOrg(t, {
      orgType: 'dls',
      name: DEMO_AGENCY,
      taxNo: uscc('91330106MA2H3C0X1'),
      sssf: '330000',
      ssds: '330100',
      ssqx: '330106',
      address: '杭州市西湖区文三路 398 号 8 楼',
      licenceCustomers: 200,
      licenceLedgers: 150,
    });
    const admin = await addUser(t, '13800000000', '王建国', '总经理', hash);
    const acc1 = await addUser(t, '13800000001', '李晓梅', '主办会计', hash);
    const acc2 = await addUser(t, '13800000002', '张伟', '会计', hash);
    await provisionAgency(t, agency, admin);
    const [dept1] = await t
      .insert(departments)
      .values([
        { agencyId: agency, name: '记账一部', directorUserId: acc1, sort: 1 },
        { agencyId: agency, name: '记账二部', sort: 2 },
      ])
      .returning({ id: departments.id });
    await addMember(t, { agencyId: agency, orgId: agency, userId: acc1, role: 2, departmentId: dept1?.id });
    await addMember(t, { agencyId: agency, orgId: agency, userId: acc2, role: 0, departmentId: dept1?.id });
    await addEnterprises(t, agency, 60, 20261, [admin, acc1, acc2]);
    // The demo agency has 漏报检查 (lbsjc) and the unfiled-return view (wsbsdt) switched on; 鸿信 has not.
    await t.insert(whitelistOrders).values([
      { type: 'lbsjc', busiVal: String(agency) },
      { type: 'wsbsdt', busiVal: String(agency) },
    ]);

    const other = await addOrg(t, {
      orgType: 'dls',
      name: '鸿信财务咨询有限公司',
      taxNo: uscc('91440300MA5F8KQ21'),
      sssf: '440000',
      ssds: '440300',
      ssqx: '440305',
      address: '深圳市南山区科技园科发路 8 号',
    });
    const otherAdmin = await addUser(t, '13900000000', '陈思远', '负责人', hash);
    await provisionAgency(t, other, otherAdmin);
    await addEnterprises(t, other, 20, 20262, [otherAdmin]);
    await (await import('../../modules/customer/customer.seed.js')).seedCustomerDemo(t, [agency, other], secretKey);
    await (await import('../../modules/contract-template/contract-template.seed.js')).seedContractTemplateDemo(t, [
      agency,
      other,
    ]);
    await (await import('../../modules/contract/contract.seed.js')).seedContractDemo(t, [agency, other]);
    await (await import('../../modules/contract-fee/contract-fee.seed.js')).seedFeeDemo(t, [agency, other]);
    await (await import('../../modules/opportunity/opportunity.seed.js')).seedOpportunityDemo(t, [agency, other]);
    await (await import('../../modules/filing-check/filing-check.seed.js')).seedFilingDemo(t, [agency, other]);
    await (await import('../../modules/workorder/workorder.seed.js')).seedWorkOrderDemo(t, [agency, other]);
    await (await import('../../modules/content/content.seed.js')).seedContentDemo(t);

    const factory = await addOrg(t, {
      orgType: 'kjgc',
      name: '启航会计工厂',
      taxNo: uscc('91330110MA2J7P5E8'),
      sssf: '330000',
      ssds: '330100',
      ssqx: '330110',
      address: '杭州市余杭区五常大道 181 号',
      kjgcDlsId: agency,
    });
    const factoryUser = await addUser(t, '13700000000', '赵敏', '记账主管', hash);
    await addMember(t, { agencyId: agency, orgId: factory, userId: factoryUser, role: 1 });
    await seedKjgcDemo(t, agency, factory, factoryUser, admin);

    await t
      .insert(users)
      .values({ phone: '13600000000', hymc: '平台运营', zw: '运营专员', passwordHash: hash, isOperator: true });
  });
  return true;
}

/** True when nothing has been created yet (a fresh embedded database). */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(organisations);
  return (row?.n ?? 0) === 0;
}
