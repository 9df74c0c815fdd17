import {
  type ContractStatusItem,
  type ContractWarningResult,
  contractWarningOf,
  REMINDER_LY,
  type ReminderSettings,
  type ReminderSource,
  reminderSettingOf,
} from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { contractReminderSettings, contracts, receivables } from '../../db/schema/index.js';
import { daysBetween, fullMonthsBetween } from './contract-dates.js';

/**
 * The contract status of each enterprise on `today` (business.md §3 contract status item), for the
 * contract list, the client book's warning and the fee list (slice 6c):
 * - sfstatus '0' when a receivable period that fell due before today is not fully paid (periods of
 *   deleted contracts do not count; a terminated contract's unpaid past periods still do); a period due
 *   today may still be paid today;
 * - qfys: months in arrears, the whole calendar months since the oldest unpaid due date (due 01-31,
 *   today 02-27 → 0; today 02-28 of a common year → 1), so a contract created today is not in arrears and
 *   the reminder's "欠费N个月" waits N whole months (issue 12);
 * - sfdq '1' when the in-force contract ending last ended before today; dqts the days from today to that
 *   end date (negative once past; null with no in-force contract);
 * - htstatus '3' when no in-force contract covers today, '2' when one does.
 * Every enterprise asked for gets an item. Runs inside the caller's scoped transaction (row-level security).
 */
export async function contractStatusOf(
  tx: Queryable,
  enterpriseIds: readonly number[],
  today: string,
): Promise<Map<number, ContractStatusItem>> {
  const ids = [...new Set(enterpriseIds)];
  const out = new Map<number, ContractStatusItem>();
  if (ids.length === 0) return out;

  const unpaid = await tx
    .select({
      enterpriseId: receivables.enterpriseId,
      oldest: sql<string>`min(${receivables.dueDate})::text`,
    })
    .from(receivables)
    .innerJoin(contracts, eq(contracts.id, receivables.contractId))
    .where(
      and(
        inArray(receivables.enterpriseId, ids),
        sql`${contracts.htzt} <> '0'`,
        sql`${receivables.dueDate} < ${today}::date`,
        sql`${receivables.paidFen} < ${receivables.amountFen}`,
      ),
    )
    .groupBy(receivables.enterpriseId);
  const oldestUnpaid = new Map(unpaid.map((r) => [r.enterpriseId, r.oldest]));

  const inForce = await tx
    .select({
      enterpriseId: contracts.enterpriseId,
      lastEnd: sql<string>`max(${contracts.endDate})::text`,
      covers: sql<boolean>`bool_or(${contracts.startDate} <= ${today}::date and ${contracts.endDate} >= ${today}::date)`,
    })
    .from(contracts)
    .where(and(inArray(contracts.enterpriseId, ids), eq(contracts.htzt, '2')))
    .groupBy(contracts.enterpriseId);
  const force = new Map(inForce.map((r) => [r.enterpriseId, r]));

  for (const id of ids) {
    const oldest = oldestUnpaid.get(id);
    const f = force.get(id);
    const dqts = f ? daysBetween(today, f.lastEnd) : null;
    out.set(id, {
      aeiId: id,
      sfstatus: oldest ? '0' : '1',
      qfys: oldest ? fullMonthsBetween(oldest, today) : 0,
      sfdq: dqts !== null && dqts < 0 ? '1' : '0',
      dqts,
      htstatus: f?.covers ? '2' : '3',
      endDate: f?.lastEnd ?? null,
    });
  }
  return out;
}

/** The agency's reminder settings of every source as the flat object kh_qf, kh_dq ... (defaults filled in). */
export async function reminderSettingsOf(tx: Queryable, agencyId: number): Promise<ReminderSettings> {
  const rows = await tx.select().from(contractReminderSettings).where(eq(contractReminderSettings.agencyId, agencyId));
  const stored = new Map(rows.map((r) => [r.ly, r]));
  const out: ReminderSettings = {};
  for (const ly of REMINDER_LY) {
    const r = stored.get(ly);
    const s = r ? { qf: r.qf, dq: r.dq, wyxht: r.wyxht, qfyf: r.qfyf, dqts: r.dqts } : reminderSettingOf({}, ly);
    for (const [k, v] of Object.entries(s)) out[`${ly}_${k}`] = v;
  }
  return out;
}

/** Status and the source's warning of each enterprise. */
export async function contractWarningsOf(
  tx: Queryable,
  agencyId: number,
  enterpriseIds: readonly number[],
  ly: ReminderSource,
  today: string,
): Promise<Map<number, ContractStatusItem & ContractWarningResult>> {
  const status = await contractStatusOf(tx, enterpriseIds, today);
  const setting = reminderSettingOf(await reminderSettingsOf(tx, agencyId), ly);
  const out = new Map<number, ContractStatusItem & ContractWarningResult>();
  for (const [id, s] of status) out.set(id, { ...s, ...contractWarningOf(s, setting) });
  return out;
}

/** Level 2 of a source's reminder setting: the warning is shown and the source's action refused. */
export const CONTRACT_BLOCK_LEVEL = 2;

/**
 * The enterprises whose contract warning of `ly` blocks the source's action (level 2), with the warning
 * each one shows. The actions that ask: 报税检查 (sb) leaves them out of the batch, 登录电子税务局 from
 * the client book (kh) is refused.
 */
export async function contractBlocks(
  tx: Queryable,
  agencyId: number,
  enterpriseIds: readonly number[],
  ly: ReminderSource,
  today: string,
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const setting = reminderSettingOf(await reminderSettingsOf(tx, agencyId), ly);
  // Most agencies only warn: then nothing blocks and the status of the enterprises is not needed.
  if (Math.max(setting.qf, setting.dq, setting.wyxht) < CONTRACT_BLOCK_LEVEL) return out;
  for (const [id, s] of await contractStatusOf(tx, enterpriseIds, today)) {
    const w = contractWarningOf(s, setting);
    if (w.level >= CONTRACT_BLOCK_LEVEL && w.warning) out.set(id, w.warning);
  }
  return out;
}
