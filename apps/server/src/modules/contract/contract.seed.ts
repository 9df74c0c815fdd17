import { fenToYuan } from '@dzy/shared';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { contractTemplateLines, contractTemplates, enterprises, memberships } from '../../db/schema/index.js';
import { chinaDate } from '../../plugins/jobs.js';
import { createContract, type NewContract, terminateContract } from './contract.service.js';
import { addDays, addMonths } from './contract-dates.js';

type Kind = 'active' | 'expiring' | 'expired' | 'terminated' | 'draft' | 'renewed';

/** The mix of the demo agency's 60 clients: 45 with contracts, 15 without. */
function kindOf(i: number): Kind | null {
  if (i < 3) return 'renewed';
  if (i < 25) return 'active';
  if (i < 32) return 'expiring';
  if (i < 38) return 'expired';
  if (i < 41) return 'terminated';
  if (i < 45) return 'draft';
  return null;
}

const CYCLES = [12, 3, 1, 12, 6, 0] as const;

/**
 * Demo contracts, made by the contract service so that in-force ones have their receivable schedules:
 * in force, expiring within 30 days, expired, terminated, drafts, renewals, and 15 clients without any.
 * The other agency gets a few in force. Dates are relative to today, so the demo always shows the mix.
 */
export async function seedContractDemo(db: Db, agencies: readonly number[], today = chinaDate()) {
  for (const [n, agencyId] of agencies.entries()) {
    const templates = await db
      .select({ id: contractTemplates.id })
      .from(contractTemplates)
      .where(and(eq(contractTemplates.agencyId, agencyId), eq(contractTemplates.tempStatic, '1')))
      .orderBy(asc(contractTemplates.id));
    if (templates.length === 0) continue;
    const linesOf = new Map<number, NewContract['lines']>();
    for (const t of templates) {
      const lines = await db
        .select()
        .from(contractTemplateLines)
        .where(eq(contractTemplateLines.templateId, t.id))
        .orderBy(asc(contractTemplateLines.sort));
      linesOf.set(
        t.id,
        lines.map((l) => ({
          serviceId: l.serviceId,
          isGive: l.isGive as 0 | 1,
          price: fenToYuan(l.priceFen),
          discount: fenToYuan(l.discountFen),
        })),
      );
    }
    const [admin] = await db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.agencyId, agencyId), eq(memberships.isAdmin, true)))
      .limit(1);
    const clients = await db
      .select({ id: enterprises.id, owner: enterprises.allocateUser })
      .from(enterprises)
      .where(and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt)))
      .orderBy(asc(enterprises.id));
    for (const [i, e] of clients.entries()) {
      const kind = n === 0 ? kindOf(i) : i < 5 ? 'active' : null;
      if (!kind) continue;
      const template = templates[i % templates.length];
      if (!template) continue;
      const base = {
        agencyId,
        actorId: admin?.userId ?? e.owner ?? 0,
        enterpriseId: e.id,
        templateId: template.id,
        contractUserId: e.owner ?? admin?.userId ?? 0,
        payCycle: CYCLES[i % CYCLES.length] ?? 12,
        discount: i % 4 === 0 ? '100.00' : '0.00',
        remark: '',
        lines: linesOf.get(template.id) ?? [],
      };
      if (base.lines.length === 0) continue;
      // A one-year term ending `endIn` days from today (negative: already ended).
      const term = (endIn: number) => {
        const endDate = addDays(today, endIn);
        const startDate = addDays(addMonths(endDate, -12), 1);
        return { startDate, endDate, signDate: addDays(startDate, -7) };
      };
      if (kind === 'renewed') {
        const old = await createContract(db, { ...base, ...term(-40 - i * 20), htzt: '2' });
        const startDate = addDays(old.endDate, 1);
        await createContract(db, {
          ...base,
          startDate,
          endDate: addDays(addMonths(startDate, 12), -1),
          signDate: addDays(startDate, -10),
          htzt: '2',
          renewedFromId: old.id,
        });
      } else if (kind === 'active') {
        await createContract(db, { ...base, ...term(40 + ((i * 37) % 300)), htzt: '2' });
      } else if (kind === 'expiring') {
        await createContract(db, { ...base, ...term(3 + (i - 25) * 4), htzt: '2' });
      } else if (kind === 'expired') {
        await createContract(db, { ...base, ...term(-5 - (i - 32) * 15), htzt: '2' });
      } else if (kind === 'terminated') {
        const c = await createContract(db, { ...base, ...term(120 + i), htzt: '2' });
        await terminateContract(db, c, '客户公司注销，提前终止服务', addDays(today, -10 - i));
      } else {
        await createContract(db, { ...base, ...term(365), htzt: '1' });
      }
    }
  }
}
