import {
  addMonths,
  type DuePeriod,
  duePeriod,
  FILING_DEADLINES_2026,
  type FilingCycle,
  type FilingRegistration,
  type FilingState,
  type FilingTaxType,
  registrationsOf,
  type TaxpayerKind,
} from '@dzy/shared';
import { and, asc, desc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enterpriseFilingSettings, enterprises, filingCells, filingSyncs, users } from '../../db/schema/index.js';
import { loadHolidays } from '../filing-holiday/holiday.routes.js';

/** One return due on the calendar (state '' when the roster was never synced for its month). */
export interface DueReturn extends DuePeriod {
  aeiId: number;
  qymc: string;
  qysh: string;
  allocateUser: number | null;
  allocateUserName: string;
  type: FilingTaxType;
  state: FilingState | '';
  source: 'bureau' | 'book';
}

const CHUNK = 1000;

/**
 * The returns due in the given filing months for the clients `where` selects (in service, not in the
 * recycle bin; ignored types left out). A month the roster was synced for: its cells, with the
 * bureau's states. Otherwise the client's registrations: the bureau's (the types and cycles of its
 * latest synced roster) or, never synced, those of its 纳税人类型 in the book (registrationsOf with
 * employees), with the calendar's due periods and deadlines.
 */
export async function dueReturns(tx: Queryable, agencyId: number, where: SQL, months: string[]): Promise<DueReturn[]> {
  // The operator's holiday arrangement (table holiday_days) for the deadlines of months not yet synced.
  const holidays = await loadHolidays(tx);
  const clients = await tx
    .select({
      id: enterprises.id,
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      qyxz: enterprises.qyxz,
      allocateUser: enterprises.allocateUser,
      userName: users.hymc,
      ignored: enterpriseFilingSettings.ignoredTypes,
    })
    .from(enterprises)
    .leftJoin(users, eq(users.id, enterprises.allocateUser))
    .leftJoin(
      enterpriseFilingSettings,
      and(
        eq(enterpriseFilingSettings.agencyId, enterprises.agencyId),
        eq(enterpriseFilingSettings.enterpriseId, enterprises.id),
      ),
    )
    .where(
      and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt), eq(enterprises.serviceStatus, '1'), where),
    )
    .orderBy(asc(enterprises.id));
  const out: DueReturn[] = [];
  for (let i = 0; i < clients.length; i += CHUNK) {
    const part = clients.slice(i, i + CHUNK);
    const ids = part.map((c) => c.id);
    // The latest synced month of each client (its registrations), and the cells of the months shown.
    const syncs = await tx
      .select({ id: filingSyncs.enterpriseId, month: filingSyncs.filingMonth, nsrlx: filingSyncs.nsrlx })
      .from(filingSyncs)
      .where(and(eq(filingSyncs.agencyId, agencyId), inArray(filingSyncs.enterpriseId, ids)))
      .orderBy(desc(filingSyncs.filingMonth));
    const syncedMonths = new Map<number, Set<string>>();
    const latest = new Map<number, { month: string; nsrlx: string }>();
    for (const s of syncs) {
      if (!s.nsrlx) continue;
      if (!latest.has(s.id)) latest.set(s.id, s);
      const set = syncedMonths.get(s.id) ?? new Set<string>();
      set.add(s.month);
      syncedMonths.set(s.id, set);
    }
    const wantMonths = [...new Set([...months, ...[...latest.values()].map((l) => l.month)])];
    const cells = await tx
      .select({
        id: filingCells.enterpriseId,
        month: filingCells.filingMonth,
        type: filingCells.taxType,
        cycle: filingCells.cycle,
        skssqq: filingCells.skssqq,
        skssqz: filingCells.skssqz,
        sbqx: filingCells.sbqx,
        state: filingCells.state,
      })
      .from(filingCells)
      .where(
        and(
          eq(filingCells.agencyId, agencyId),
          inArray(filingCells.enterpriseId, ids),
          inArray(filingCells.filingMonth, wantMonths),
          eq(filingCells.carried, false),
        ),
      );
    const cellsOf = new Map<string, typeof cells>();
    for (const c of cells) {
      const k = `${c.id}:${c.month}`;
      const list = cellsOf.get(k) ?? [];
      list.push(c);
      cellsOf.set(k, list);
    }
    for (const c of part) {
      const ignored = new Set<string>(c.ignored ?? []);
      const base = {
        aeiId: c.id,
        qymc: c.qymc,
        qysh: c.qysh,
        allocateUser: c.allocateUser,
        allocateUserName: c.userName ?? '',
      };
      const last = latest.get(c.id);
      const regs: FilingRegistration[] = last
        ? [
            ...new Map(
              (cellsOf.get(`${c.id}:${last.month}`) ?? []).map((x) => [
                x.type,
                { type: x.type, cycle: x.cycle as FilingCycle },
              ]),
            ).values(),
          ]
        : registrationsOf((c.qyxz === '0' ? '0' : '1') as TaxpayerKind, { employees: true });
      for (const month of months) {
        if (syncedMonths.get(c.id)?.has(month)) {
          for (const x of cellsOf.get(`${c.id}:${month}`) ?? []) {
            if (x.state === 'wxsb' || ignored.has(x.type) || !x.sbqx) continue;
            out.push({
              ...base,
              type: x.type,
              skssqq: x.skssqq,
              skssqz: x.skssqz,
              sbqx: x.sbqx,
              state: x.state,
              source: 'bureau',
            });
          }
          continue;
        }
        for (const reg of regs) {
          if (ignored.has(reg.type)) continue;
          const p = duePeriod(reg, month, FILING_DEADLINES_2026, holidays);
          if (p) out.push({ ...base, type: reg.type, ...p, state: '', source: last ? 'bureau' : 'book' });
        }
      }
    }
  }
  return out;
}

/** Filed (申报 done, paid or not): no reminder, not counted as unfiled. */
export const isFiledState = (s: FilingState | '') => s === 'ysb' || s === 'yjk';

/** The two filing months of the calendar. */
export const calendarMonths = (month: string) => [month, addMonths(month, 1)];
