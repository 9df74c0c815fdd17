import { CODE, customerCreateCall, fenToYuan, OPP_MSG, OPP_REMINDER_LABEL, type OppConvertBody } from '@dzy/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import {
  contractTemplateLines,
  contractTemplates,
  enterprises,
  opportunities,
  opportunityTransfers,
} from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { createContract } from '../contract/contract.service.js';
import {
  assertLicence,
  baseColumns,
  credentialColumns,
  notifyAssigned,
  quotaCoverage,
  replaceChildren,
  validateInput,
} from '../customer/customer.service.js';
import { notifyEvent } from '../message/notify.js';
import { isUniqueViolation } from '../role/member.repo.js';
import type { OppRow } from './opportunity.repo.js';

export type TransferKind = 'create' | 'transfer' | 'release' | 'auto' | 'claim' | 'handover' | 'remove';

/**
 * Gives these opportunities to `toUserId` (null: into the pool) and writes one transfer log row each.
 * Getting an owner restarts the automatic-release clock (followed_at) and its warning.
 */
export async function moveOwner(
  tx: Queryable,
  agencyId: number,
  rows: readonly Pick<OppRow, 'id' | 'ownerId'>[],
  toUserId: number | null,
  kind: TransferKind,
  byUserId: number | null,
  reason = '',
) {
  if (rows.length === 0) return;
  const now = new Date();
  await tx
    .update(opportunities)
    .set(
      toUserId === null
        ? { ownerId: null, releasedAt: now, nextFollowAt: null, releaseWarnedOn: null, updatedAt: now }
        : { ownerId: toUserId, followedAt: now, releasedAt: null, releaseWarnedOn: null, updatedAt: now },
    )
    .where(
      and(
        eq(opportunities.agencyId, agencyId),
        inArray(
          opportunities.id,
          rows.map((r) => r.id),
        ),
      ),
    );
  await tx.insert(opportunityTransfers).values(
    rows.map((r) => ({
      agencyId,
      opportunityId: r.id,
      kind,
      fromUserId: r.ownerId,
      toUserId,
      byUserId,
      reason,
    })),
  );
}

/**
 * The staff module's handover: the leaver's open opportunities go to the receiver (converted ones keep
 * their history and owner). Returns how many moved.
 */
export async function handOverOpportunities(
  tx: Queryable,
  agencyId: number,
  fromUserId: number,
  toUserId: number,
  byUserId: number,
) {
  const rows = await tx
    .select({ id: opportunities.id, ownerId: opportunities.ownerId })
    .from(opportunities)
    .where(and(eq(opportunities.agencyId, agencyId), eq(opportunities.ownerId, fromUserId)))
    .for('update');
  await moveOwner(tx, agencyId, rows, toUserId, 'handover', byUserId);
  return rows.length;
}

/** A member removed from the agency: their opportunities go to the pool so nobody's work is lost. */
export async function releaseOpportunitiesOf(tx: Queryable, agencyId: number, userId: number, byUserId: number) {
  const rows = await tx
    .select({ id: opportunities.id, ownerId: opportunities.ownerId })
    .from(opportunities)
    .where(and(eq(opportunities.agencyId, agencyId), eq(opportunities.ownerId, userId)))
    .for('update');
  await moveOwner(tx, agencyId, rows, null, 'remove', byUserId);
  return rows.length;
}

/** Tells the new owner of transferred opportunities. */
export function notifyTransferred(
  tx: Tx,
  deps: Deps,
  afterCommit: (fn: () => Promise<void>) => void,
  agencyId: number,
  to: number,
  rows: readonly Pick<OppRow, 'id' | 'companyName'>[],
  by: string,
) {
  const first = rows[0];
  if (!first) return Promise.resolve([]);
  const name = rows.length === 1 ? first.companyName : `${first.companyName}等${rows.length}个`;
  return notifyEvent(tx, deps.push, afterCommit, {
    event: 'reminder',
    label: OPP_REMINDER_LABEL,
    msgStyleSmall: 'opportunity',
    agencyId,
    userIds: [to],
    targetId: first.id,
    detail: OPP_MSG.transferredToYou(name, by),
  });
}

/**
 * Converts a won opportunity (locked by the caller) into a client of the client book, given to the
 * opportunity's owner, and a draft contract prefilled from the template's lines. Runs in the call's
 * transaction: the client, the contract and the opportunity's link commit together or not at all, and
 * a second call (double click, retry) finds the link and returns the same client and contract.
 */
export async function convertOpportunity(
  tx: Tx,
  deps: Deps,
  afterCommit: (fn: () => Promise<void>) => void,
  session: SessionCtx & { agencyId: number },
  o: OppRow,
  body: Omit<OppConvertBody, 'id'>,
) {
  const agencyId = session.agencyId;
  const owner = o.ownerId ?? session.userId;
  const input = customerCreateCall.body.parse({
    qymc: o.companyName,
    qysh: body.qysh,
    remark: o.remark,
    contacts: [{ name: o.contactName, mobile: o.phone, isPrimary: true }],
  });
  const { allocate_user: _unused, ...enterpriseInput } = input;
  const { qysh } = await validateInput(tx, session, enterpriseInput);
  await assertLicence(tx, agencyId, 1);
  const [template] = await tx
    .select({ id: contractTemplates.id })
    .from(contractTemplates)
    .where(
      and(
        eq(contractTemplates.agencyId, agencyId),
        eq(contractTemplates.id, body.templateId),
        eq(contractTemplates.tempStatic, '1'),
      ),
    );
  if (!template) throw new AppError(CODE.NOT_FOUND, OPP_MSG.templateNotFound);
  const lines = await tx
    .select()
    .from(contractTemplateLines)
    .where(eq(contractTemplateLines.templateId, template.id))
    .orderBy(asc(contractTemplateLines.sort));
  let enterpriseId: number;
  try {
    const [row] = await tx
      .insert(enterprises)
      .values({
        agencyId,
        ...baseColumns(enterpriseInput, qysh),
        allocateUser: owner,
        ...(await quotaCoverage(tx)),
        ...credentialColumns(deps.config.secretKey, undefined),
      })
      .returning({ id: enterprises.id });
    if (!row) throw new Error('enterprise insert returned nothing');
    enterpriseId = row.id;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, `企业「${o.companyName}」已存在`);
    throw err;
  }
  await replaceChildren(tx, agencyId, enterpriseId, enterpriseInput);
  const contract = await createContract(tx, {
    agencyId,
    actorId: session.userId,
    enterpriseId,
    templateId: template.id,
    contractUserId: owner,
    htzt: '1',
    signDate: body.signDate,
    startDate: body.startDate,
    endDate: body.endDate,
    payCycle: body.payCycle,
    discount: '0.00',
    remark: `由商机「${o.companyName}」转化`,
    lines: lines.map((l) => ({
      serviceId: l.serviceId,
      isGive: l.isGive === 1 ? 1 : 0,
      price: fenToYuan(l.priceFen),
      discount: fenToYuan(l.discountFen),
    })),
  });
  await tx
    .update(opportunities)
    .set({ enterpriseId, contractId: contract.id, convertedAt: new Date(), nextFollowAt: null, updatedAt: new Date() })
    .where(eq(opportunities.id, o.id));
  await notifyAssigned(tx, deps.push, afterCommit, session, agencyId, owner, [
    { id: enterpriseId, qymc: o.companyName },
  ]);
  return { enterpriseId, contractId: contract.id, contractNo: contract.contractNo };
}

/** Opportunities already converted are read-only. */
export function assertOpen(rows: readonly Pick<OppRow, 'enterpriseId' | 'convertedAt'>[]) {
  if (rows.some((r) => r.convertedAt !== null)) throw new AppError(CODE.CONFLICT, OPP_MSG.alreadyConverted);
}
