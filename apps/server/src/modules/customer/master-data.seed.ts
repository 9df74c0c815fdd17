import { and, eq, inArray, like } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { enterprises } from '../../db/schema/index.js';

/**
 * The demo agency's clients against the simulated bureau's registration (issue 19 point 1): the
 * generated book and the bureau agree except where the demo means to show 需更新. The platform owns this
 * copy of what the bureau registered, as it owns demo-bureau.ts; customer-master-data.test.ts checks
 * it against the simulator.
 *
 * DEMO_BUREAU_KINDS: the registered 纳税人类型 of the demo clients whose generated kind differed; the
 * seed takes the bureau's. DEMO_DIFFERENCES: left different on purpose.
 */
export const DEMO_BUREAU_KINDS: Readonly<Record<string, '0' | '1'>> = {
  '91350181MAPU6WLX3L': '1',
  '91330108MA2DY70045': '1',
  '91512002MAEL7EHA8B': '1',
  '91120105MA31ABE4XJ': '0',
  '91370211MAPHWF4W03': '0',
  '91330108MA2DY7016C': '1',
  '91330108MA2DY7007E': '0',
  '91440114495007318R': '1',
  '91120112MAB31PUX4L': '1',
  '91110111MA5J3PKK9T': '0',
  '91370403MA1CDRAC6X': '0',
  '91110115639284104F': '1',
  '91330108MA2DY70120': '1',
  '91510603MAJ1603Q7N': '0',
  '91310118MAYDN8GJ5K': '1',
  '91370402639324727U': '0',
  '91330604793241401N': '0',
  '91320703MAAAW48R1A': '1',
  '91421083MAA96HB298': '0',
  '91321204896182707F': '1',
  '91420702104396601R': '1',
};

/** Kept different from the bureau on purpose: the book's name and kind vs the bureau's registration. */
export const DEMO_DIFFERENCES = [
  // 上海丰益企业管理咨询有限公司 in the book; the bureau registered 上海和诚食品有限公司, a general taxpayer.
  { qysh: '91310120MAQU6EHY9C', fields: ['qymc', 'qyxz'] },
  // 上海和凯新材料有限公司: the book says small-scale, the bureau general taxpayer.
  { qysh: '91310117687963662F', fields: ['qyxz'] },
] as const;

/**
 * Gives the demo agency's book the bureau's 纳税人类型 (after the scenario tax numbers are in place), and
 * the clients that took a scenario tax number (91330108…, registered in 杭州市滨江区) that region.
 */
export async function seedMasterDataDemo(db: Db, agencyId: number) {
  await db
    .update(enterprises)
    .set({ sssf: '330000', ssds: '330100', ssqx: '330108' })
    .where(and(eq(enterprises.agencyId, agencyId), like(enterprises.qysh, '91330108MA2DY7%')));
  for (const kind of ['0', '1'] as const) {
    const list = Object.entries(DEMO_BUREAU_KINDS)
      .filter(([, k]) => k === kind)
      .map(([qysh]) => qysh);
    await db
      .update(enterprises)
      .set({ qyxz: kind })
      .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.qysh, list)));
  }
}
