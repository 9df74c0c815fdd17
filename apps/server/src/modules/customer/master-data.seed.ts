import { and, eq, inArray, like, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterpriseProfiles, enterprises } from '../../db/schema/index.js';

/**
 * The demo clients against the simulated bureau's registration (issue 19 point 1): the book agrees with
 * what the bureau registered (name, 纳税人类型, region, legal representative, tax types) except where the
 * demo means to show 需更新. The platform owns this copy, as it owns demo-bureau.ts; the server never asks
 * the simulator for it. customer-master-data.test.ts checks it against the simulator for every demo client.
 *
 * DEMO_BUREAU_KINDS: the registered 纳税人类型 of the demo clients whose generated kind differs (both
 * agencies; the scenario tax numbers and the numbers they replace when no key is given); the seed takes
 * the bureau's. The book records no legal representative or tax types for the others (blank is not a
 * difference).
 */
export const DEMO_BUREAU_KINDS: Readonly<Record<string, '0' | '1'>> = {
  '91320505MATX485L7G': '0',
  '91320213MA9R83E76D': '0',
  '91350824MALGNFTM0N': '1',
  '911302298835429451': '0',
  '91512002MAEL7EHA8B': '1',
  '91130725MA8TK4FN1Q': '0',
  '91330108MA2DY7016C': '1',
  '91320413MARFWCFW42': '1',
  '91120119225056718N': '0',
  '91440114495007318R': '1',
  '91110111MA5J3PKK9T': '0',
  '91110115639284104F': '1',
  '91110107MA8G20UJ3B': '0',
  '91130322MA449QMR98': '0',
  '91310116191012695C': '0',
  '91330604793241401N': '0',
  '9137057162261519X2': '1',
  '91320703MAAAW48R1A': '1',
  '91421121596723698H': '0',
  '91130703MA2K6A2K5U': '0',
  '91110113MACMWDQH3U': '0',
  '91310109MA1F0NRK0K': '0',
  '913705057519293554': '1',
  '91420702MAPED9JJ7H': '1',
  '91120117MAYQW2HG1J': '0',
  '91440233MARMT40R6R': '0',
  '91120110MAAN2FDM0C': '0',
  '91511825MADD6J9R58': '1',
};

/** The legal representative the demo book still records for 天津明业商贸有限公司; the bureau has 彭辉. */
const OLD_LEGAL_REP = { qysh: '91120105MA31ABE4XJ', fddbrxm: '陈志明' } as const;

/** Kept different from the bureau on purpose (the first demo agency). */
export const DEMO_DIFFERENCES = [
  // 上海丰益企业管理咨询有限公司 in the book; the bureau registered 上海和诚食品有限公司 (REGISTERED_NAMES).
  { qysh: '91310120MAQU6EHY9C', fields: ['qymc'] },
  // 天津明业商贸有限公司: the legal representative changed at the bureau, the book has the old one.
  { qysh: OLD_LEGAL_REP.qysh, fields: ['fddbrxm'] },
] as const;

/**
 * Gives an agency's demo book the bureau's 纳税人类型 (after the scenario tax numbers are in place); in the
 * first agency also the scenario numbers' region (91330108…, 杭州市滨江区) and the old legal representative.
 */
export async function seedMasterDataDemo(db: Db, agencyId: number, first: boolean) {
  for (const kind of ['0', '1'] as const) {
    const list = Object.keys(DEMO_BUREAU_KINDS).filter((q) => DEMO_BUREAU_KINDS[q] === kind);
    await db
      .update(enterprises)
      .set({ qyxz: kind })
      .where(and(eq(enterprises.agencyId, agencyId), ne(enterprises.qysh, ''), inArray(enterprises.qysh, list)));
  }
  if (!first) return;
  await db
    .update(enterprises)
    .set({ sssf: '330000', ssds: '330100', ssqx: '330108' })
    .where(and(eq(enterprises.agencyId, agencyId), like(enterprises.qysh, '91330108MA2DY7%')));
  const [e] = await db
    .select({ id: enterprises.id })
    .from(enterprises)
    .where(and(eq(enterprises.agencyId, agencyId), eq(enterprises.qysh, OLD_LEGAL_REP.qysh)));
  if (e) {
    await db
      .insert(enterpriseProfiles)
      .values({ agencyId, enterpriseId: e.id, fddbrxm: OLD_LEGAL_REP.fddbrxm })
      .onConflictDoUpdate({
        target: [enterpriseProfiles.agencyId, enterpriseProfiles.enterpriseId],
        set: { fddbrxm: OLD_LEGAL_REP.fddbrxm },
      });
  }
}
