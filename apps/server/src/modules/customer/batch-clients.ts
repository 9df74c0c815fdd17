import { CODE, NO_TAX_NUMBER_PROMPT, type ReminderSource } from '@dzy/shared';
import { and, asc, eq, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { enterprises } from '../../db/schema/index.js';
import { dataScope } from '../../lib/data-scope.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import type { SessionCtx } from '../../plugins/session.js';
import { contractBlocks } from '../contract/contract-status.js';
import { agencyOf } from './customer.repo.js';

/** Clients in the book the caller may see: the tenant, not in the recycle bin, the data scope. */
export const clientsInScope = (session: SessionCtx) =>
  and(
    eq(enterprises.agencyId, agencyOf(session)),
    isNull(enterprises.deletedAt),
    dataScope(session, enterprises.allocateUser),
  ) as SQL;

export interface BatchClient {
  id: number;
  qysh: string;
  qymc: string;
}

/** A client left out of a batch, with the warning the user is shown for it. */
export interface SkippedClient {
  aeiId: number;
  qymc: string;
  qysh: string;
  warning: string;
}

export interface BatchPick {
  /** 'all': every client in scope and in service; 'selected': exactly the ids named. */
  scope: 'all' | 'selected';
  aeiIds: readonly number[];
}

export interface BatchChoiceRules {
  /** The contract reminder source whose level 2 keeps a client out (申报 sb, 发票 fp, …). */
  ly: ReminderSource;
  /** Chosen clients must also be in service (the filing roster), not only when all are asked for. */
  inServiceAlways?: boolean;
  /** The batch's own messages: an id not the caller's, every client blocked, nothing left. */
  msg: { notYours: string; allBlocked: string; noEnterprise: string };
}

/**
 * The clients a batch over the bureau takes, decided the same way for every batch (报税检查, 申报清册 sync,
 * 漏报检查, 申报计划, the invoice pool): every id named must be the caller's (tenant and data scope), else
 * 404 and nothing starts; "all" means every client in service; a client without a tax number cannot be
 * asked of the bureau (the spec's prompt); a contract reminder at level 2 for the source keeps a client out.
 * Refuses when nobody is left, with the single block's own warning when that is why.
 */
export async function chooseBatchClients(
  tx: Queryable,
  session: SessionCtx,
  pick: BatchPick,
  rules: BatchChoiceRules,
): Promise<{ chosen: BatchClient[]; noQysh: SkippedClient[]; blocked: SkippedClient[] }> {
  const wanted = [...new Set(pick.aeiIds)];
  const inService = eq(enterprises.serviceStatus, '1');
  const inBook = await tx
    .select({ id: enterprises.id, qysh: enterprises.qysh, qymc: enterprises.qymc })
    .from(enterprises)
    .where(
      and(
        clientsInScope(session),
        pick.scope === 'selected' ? inArray(enterprises.id, wanted) : inService,
        rules.inServiceAlways && pick.scope === 'selected' ? inService : undefined,
      ),
    )
    .orderBy(asc(enterprises.id));
  if (pick.scope === 'selected' && inBook.length !== wanted.length)
    throw new AppError(CODE.NOT_FOUND, rules.msg.notYours);
  const noQysh = inBook
    .filter((e) => !e.qysh)
    .map((e) => ({ aeiId: e.id, qymc: e.qymc, qysh: '', warning: NO_TAX_NUMBER_PROMPT }));
  let chosen = inBook.filter((e) => e.qysh);
  const blocks = await contractBlocks(
    tx,
    agencyOf(session),
    chosen.map((e) => e.id),
    rules.ly,
    chinaDate(),
  );
  const blocked = chosen
    .filter((e) => blocks.has(e.id))
    .map((e) => ({ aeiId: e.id, qymc: e.qymc, qysh: e.qysh, warning: blocks.get(e.id) ?? '' }));
  if (blocked.length > 0) chosen = chosen.filter((e) => !blocks.has(e.id));
  if (chosen.length === 0) {
    if (blocked.length > 0)
      throw new AppError(CODE.CONFLICT, blocked.length === 1 ? (blocked[0]?.warning ?? '') : rules.msg.allBlocked);
    throw new AppError(CODE.EMPTY, noQysh.length > 0 ? NO_TAX_NUMBER_PROMPT : rules.msg.noEnterprise);
  }
  return { chosen, noQysh, blocked };
}
