import { BENEFIT_MENU, idCardCheckChar } from '@dzy/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  agencyAccounts,
  enterpriseContacts,
  enterpriseLabels,
  enterprises,
  equityMenus,
  grades,
  labels,
  organisations,
} from '../../db/schema/index.js';
import {
  DEMO_ETAX_PASSWORD,
  DEMO_PERSONAL_PASSWORD,
  DEMO_SCENARIO_TAXPAYERS,
  type DemoScenario,
} from '../../db/seed/demo-bureau.js';
import { generateMobile, generatePersonName, mulberry32 } from '../../db/seed/demo-data.js';
import { encrypt } from '../../lib/crypto.js';
import { seedMasterDataDemo } from './master-data.seed.js';

/**
 * Which customer features are paid (business.md §6): only stopping and resuming service is, so the
 * benefit dialogs show on it; the rest are free. Every feature the book checks has an entry (a
 * missing one is 权限异常！).
 */
export const CUSTOMER_EQUITY_MENUS: (typeof equityMenus.$inferInsert)[] = [
  { menuid: BENEFIT_MENU.add, title: '新增客户', iscontrol: 'N', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.edit, title: '编辑客户', iscontrol: 'N', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.delete, title: '删除客户', iscontrol: 'N', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.assign, title: '分配客户', iscontrol: 'N', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.service, title: '停止/恢复服务', iscontrol: 'Y', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.import, title: '导入客户', iscontrol: 'N', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.export, title: '导出客户', iscontrol: 'N', anqyflag: 'Y' },
  // 发票 (issue 15; also migration 0026 for existing databases): issuing, red-letter and input confirmation
  // are paid; collecting the pool is not (it is the filing's source of invoice totals for every client).
  { menuid: BENEFIT_MENU.invoiceIssue, title: '开具发票', iscontrol: 'Y', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.invoiceRed, title: '红冲发票', iscontrol: 'Y', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.invoiceInput, title: '进项勾选确认', iscontrol: 'Y', anqyflag: 'Y' },
  { menuid: BENEFIT_MENU.invoiceCollect, title: '发票采集', iscontrol: 'N', anqyflag: 'Y' },
];

const GRADES = ['A类客户', 'B类客户', 'C类客户'];
const LABELS: { name: string; color: string }[] = [
  { name: '重点客户', color: 'red' },
  { name: '新设立', color: 'green' },
  { name: '零申报', color: 'orange' },
  { name: '需催收', color: 'magenta' },
];

/** A China date (benefit expiries are China days) `offset` days from today. */
const chinaDay = (offset: number) =>
  new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * The book's demo data: the equity entries, grades and labels, a contact per enterprise, benefit
 * statuses that show the tags and the checks, and (in the first agency) two enterprises without a
 * tax number for the missing-tax-number dialog. The first agency's benefits have expired (tags and
 * per-enterprise checks show), the second's are about to expire (the reminder with 不再提醒).
 * Runs as the owner inside the demo seed's transaction.
 */
export async function seedCustomerDemo(db: Db, agencyIds: readonly number[], secretKey?: Buffer) {
  await db.insert(equityMenus).values(CUSTOMER_EQUITY_MENUS).onConflictDoNothing();
  for (const [n, agencyId] of agencyIds.entries()) {
    await db
      .update(organisations)
      .set({ qyzt: n === 0 ? '3' : '2' })
      .where(eq(organisations.id, agencyId));
    // The plan behind that status, as the operator's 机构权益 keeps it (the daily sweep derives qyzt from it):
    // the first agency's 标准版 ended a month ago, the second's 专业版 ends in ten days.
    await db
      .insert(agencyAccounts)
      .values(
        n === 0
          ? { agencyId, plan: 'standard', startsOn: chinaDay(-395), expiresOn: chinaDay(-30) }
          : { agencyId, plan: 'pro', startsOn: chinaDay(-355), expiresOn: chinaDay(10) },
      );
    const gradeRows = await db
      .insert(grades)
      .values(GRADES.map((name, i) => ({ agencyId, name, sort: i + 1 })))
      .returning({ id: grades.id });
    const labelRows = await db
      .insert(labels)
      .values(LABELS.map((l) => ({ agencyId, ...l })))
      .returning({ id: labels.id });
    const list = await db
      .select({ id: enterprises.id })
      .from(enterprises)
      .where(eq(enterprises.agencyId, agencyId))
      .orderBy(asc(enterprises.id));
    const rand = mulberry32(4242 + agencyId);
    const contacts: (typeof enterpriseContacts.$inferInsert)[] = [];
    const links: (typeof enterpriseLabels.$inferInsert)[] = [];
    for (const [i, { id }] of list.entries()) {
      const kind = i % 6;
      const benefit =
        kind === 0 || kind === 1
          ? { qyzt: '1', hydjReal: 2, hydqsj: day(200 + i), qylb: `,${BENEFIT_MENU.service},` }
          : kind === 2
            ? { qyzt: '2', hydjReal: 8, hydqsj: day(10 + (i % 20)), qylb: `,${BENEFIT_MENU.service},` }
            : kind === 3
              ? { qyzt: '3', hydjReal: 1, hydqsj: day(-30 - i), qylb: '' }
              : kind === 4
                ? { qyzt: '0', hydjReal: null, hydqsj: null, qylb: '' }
                : { qyzt: '1', hydjReal: 41, hydqsj: day(60 + i), qylb: `,${BENEFIT_MENU.service},` };
      await db
        .update(enterprises)
        .set({
          ...benefit,
          // A plan with the paid customer feature has the paid 发票 features too (issue 15).
          qylb:
            benefit.qylb &&
            `${benefit.qylb}${BENEFIT_MENU.invoiceIssue},${BENEFIT_MENU.invoiceRed},${BENEFIT_MENU.invoiceInput},`,
          gradeId: i % 4 === 3 ? null : (gradeRows[i % 3]?.id ?? null),
          serviceStatus: i % 13 === 12 ? '0' : '1',
          fjh: i % 5 === 0 ? '0' : '',
        })
        .where(eq(enterprises.id, id));
      contacts.push({
        agencyId,
        enterpriseId: id,
        name: generatePersonName(rand),
        position: i % 2 === 0 ? '财务负责人' : '法定代表人',
        mobile: generateMobile(rand),
        isPrimary: true,
      });
      const pick = (k: number) => labelRows[k]?.id;
      for (const [cond, k] of [
        [i % 5 === 0, 0],
        [i % 4 === 1, 1],
        [i % 7 === 0, 2],
        [i % 11 === 3, 3],
      ] as const) {
        const labelId = pick(k);
        if (cond && labelId) links.push({ agencyId, enterpriseId: id, labelId });
      }
    }
    if (contacts.length > 0) await db.insert(enterpriseContacts).values(contacts);
    if (links.length > 0) await db.insert(enterpriseLabels).values(links);
    // Credentials are stored encrypted, so they need the server's key (not given: none are set).
    if (secretKey) await seedBureauCredentials(db, agencyId, list, secretKey, n === 0);
    await seedMasterDataDemo(db, agencyId, n === 0);
    if (n === 0) {
      // The 5th and 6th enterprises (李晓梅's and 张伟's) are missing their tax number.
      const missing = list.slice(4, 6).map((e) => e.id);
      if (missing.length > 0) await db.update(enterprises).set({ qysh: '' }).where(inArray(enterprises.id, missing));
    }
  }
}

/**
 * The first agency's clients against the simulated bureau (docs/tax-bureau-protocol.md): most log in
 * cleanly; some take a fixed scenario tax number. Indices avoid the clients whose membership expired
 * (i % 6 === 3, msg_type 8 on their own), the two without a tax number and the stopped ones.
 */
const DEMO_BUREAU_MIX: readonly {
  i: number;
  scenario?: DemoScenario;
  missing?: 'etax' | 'personal';
  oldPassword?: boolean;
}[] = [
  { i: 1, scenario: 'unfiled' },
  { i: 2, scenario: 'arrears' },
  { i: 7, scenario: 'mismatch', oldPassword: true },
  { i: 8, scenario: 'sms' },
  { i: 13, scenario: 'personalLocked' },
  { i: 14, scenario: 'deregistered' },
  { i: 19, scenario: 'busy' },
  { i: 20, scenario: 'noAssociation' },
  { i: 24, missing: 'etax' },
  { i: 26, missing: 'personal' },
  { i: 31, scenario: 'personalWrong', oldPassword: true },
];

async function seedBureauCredentials(
  db: Db,
  agencyId: number,
  list: readonly { id: number }[],
  key: Buffer,
  withDemoScenarios: boolean,
) {
  const [agency] = await db
    .select({ taxNo: organisations.taxNo })
    .from(organisations)
    .where(eq(organisations.id, agencyId));
  const rand = mulberry32(7070 + agencyId);
  const idNo = () => {
    const first17 = `330106${1965 + Math.floor(rand() * 35)}0${1 + Math.floor(rand() * 9)}1${Math.floor(rand() * 9)}${100 + Math.floor(rand() * 899)}`;
    return first17 + idCardCheckChar(first17);
  };
  const scenarioQysh = (s: DemoScenario) => DEMO_SCENARIO_TAXPAYERS[s];
  for (const [i, { id }] of list.entries()) {
    const mix = withDemoScenarios ? DEMO_BUREAU_MIX.find((m) => m.i === i) : undefined;
    const person = idNo();
    // About one in ten is logged in by the agency as agent (sfbm 97) with its own tax number.
    const agent = i % 10 === 9 && agency;
    const etax = {
      loginType: '0',
      xdzswjDlzh: person,
      xdzswjPassEnc: encrypt(key, mix?.scenario === 'mismatch' ? 'Etax@2025' : DEMO_ETAX_PASSWORD),
      xdzswjSfbm: agent ? '97' : i % 3 === 0 ? '1' : '3',
      agentLoginAccount: agent ? generateMobile(rand) : '',
      agentLoginPasswordEnc: agent ? encrypt(key, DEMO_ETAX_PASSWORD) : '',
      agentLoginQysh: agent ? (agency?.taxNo ?? '') : '',
    };
    const personal = {
      dlfs: '1',
      dlId: person,
      dlPasswordEnc: encrypt(
        key,
        mix?.oldPassword && mix.scenario === 'personalWrong' ? 'Gs@2025' : DEMO_PERSONAL_PASSWORD,
      ),
      reportPasswordEnc: encrypt(key, DEMO_PERSONAL_PASSWORD),
    };
    const blankEtax = {
      xdzswjDlzh: '',
      xdzswjPassEnc: '',
      xdzswjSfbm: '',
      agentLoginAccount: '',
      agentLoginPasswordEnc: '',
      agentLoginQysh: '',
    };
    const blankPersonal = { dlfs: '', dlId: '', dlPasswordEnc: '', reportPasswordEnc: '' };
    await db
      .update(enterprises)
      .set({
        ...(mix?.missing === 'etax' ? { loginType: '0', ...blankEtax } : etax),
        ...(mix?.missing === 'personal' ? blankPersonal : personal),
        ...(mix?.scenario ? { qysh: scenarioQysh(mix.scenario) } : {}),
      })
      .where(eq(enterprises.id, id));
  }
}
