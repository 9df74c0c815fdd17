import {
  CODE,
  CREDENTIAL_SECRETS,
  type CredentialInput,
  type Credentials,
  CUSTOMER_MSG,
  type customerCreateCall,
  EQUITY_MSG,
  type EquityFacts,
  equityDecision,
  qyshWarning,
} from '@dzy/shared';
import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Queryable, Tx } from '../../db/client.js';
import {
  enterpriseContacts,
  enterpriseLabels,
  enterpriseShareholders,
  enterprises,
  equityMenus,
  grades,
  labels,
  organisations,
} from '../../db/schema/index.js';
import { decrypt, encrypt, mask, maskSecret } from '../../lib/crypto.js';
import { dataScope } from '../../lib/data-scope.js';
import { AppError } from '../../plugins/errors.js';
import type { PushHub } from '../../plugins/push.js';
import type { SessionCtx } from '../../plugins/session.js';
import { notify } from '../message/notify.js';
import { regionChainValid } from '../org/regions.js';
import type { EnterpriseRow } from './customer.repo.js';

export type EnterpriseInput = Omit<z.output<typeof customerCreateCall.body>, 'allocate_user'>;

/** Tax numbers are kept in upper case so that 91330106... and 91330106...x are one enterprise. */
export const normQysh = (v: string) => v.toUpperCase();

/** The region is all three levels of one real chain, or none. */
export function checkRegion(sssf: string, ssds: string, ssqx: string) {
  if (!sssf && !ssds && !ssqx) return;
  if (!sssf || !ssds || !ssqx) throw new AppError(CODE.BAD_REQUEST, '所属地区：请选择完整的省、市、区县');
  if (regionChainValid(sssf, ssds, ssqx) !== 'ok') throw new AppError(CODE.BAD_REQUEST, '所属地区：地区编码有误');
}

/**
 * Refuses a tax number another enterprise of the agency already has (in the book or the recycle bin).
 * The message names that enterprise only when the caller may see it (their data scope).
 */
export async function assertQyshFree(tx: Queryable, session: SessionCtx, qysh: string, exceptId?: number) {
  if (!qysh || session.agencyId === null) return;
  const [other] = await tx
    .select({
      id: enterprises.id,
      qymc: enterprises.qymc,
      deletedAt: enterprises.deletedAt,
      visible: sql<boolean>`${dataScope(session, enterprises.allocateUser)}`,
    })
    .from(enterprises)
    .where(
      and(
        eq(enterprises.agencyId, session.agencyId),
        eq(enterprises.qysh, qysh),
        exceptId ? ne(enterprises.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (!other) return;
  if (!other.visible) throw new AppError(CODE.CONFLICT, CUSTOMER_MSG.duplicateHidden);
  throw new AppError(
    CODE.CONFLICT,
    other.deletedAt ? CUSTOMER_MSG.duplicateInBin(other.qymc) : CUSTOMER_MSG.duplicate(other.qymc),
  );
}

/** Refuses a new enterprise beyond the agency's licensed number of customers (null is unlimited). */
export async function assertLicence(tx: Queryable, agencyId: number, adding: number) {
  const [org] = await tx
    .select({ licence: organisations.licenceCustomers })
    .from(organisations)
    .where(eq(organisations.id, agencyId));
  const licence = org?.licence ?? null;
  if (licence === null) return;
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(enterprises)
    .where(and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt)));
  if ((count?.n ?? 0) + adding > licence) throw new AppError(CODE.BAD_REQUEST, CUSTOMER_MSG.licence(licence));
}

/**
 * What a new client inside the agency's quota holds (issue 12): it takes one of the agency's authorised
 * places (assertLicence / licenceRoom refuse one beyond them), so it is covered: benefit status '1' and
 * every paid feature (equity_menus with iscontrol 'Y') in its qylb. Without this a client created today
 * was tagged 已到期 and refused the paid features while the portal showed free authorised places.
 */
export async function quotaCoverage(tx: Queryable): Promise<{ qyzt: '1'; qylb: string }> {
  const paid = await tx
    .select({ menuid: equityMenus.menuid })
    .from(equityMenus)
    .where(eq(equityMenus.iscontrol, 'Y'))
    .orderBy(equityMenus.menuid);
  return { qyzt: '1', qylb: paid.length === 0 ? '' : `,${paid.map((m) => m.menuid).join(',')},` };
}

/** Room left under the licence; null when unlimited. */
export async function licenceRoom(tx: Queryable, agencyId: number): Promise<number | null> {
  const [org] = await tx
    .select({ licence: organisations.licenceCustomers })
    .from(organisations)
    .where(eq(organisations.id, agencyId));
  if (org?.licence === null || org?.licence === undefined) return null;
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(enterprises)
    .where(and(eq(enterprises.agencyId, agencyId), isNull(enterprises.deletedAt)));
  return Math.max(0, org.licence - (count?.n ?? 0));
}

async function assertGradeAndLabels(tx: Queryable, agencyId: number, gradeId: number | null, labelIds: number[]) {
  if (gradeId !== null) {
    const [g] = await tx
      .select({ id: grades.id })
      .from(grades)
      .where(and(eq(grades.id, gradeId), eq(grades.agencyId, agencyId)));
    if (!g) throw new AppError(CODE.NOT_FOUND, '客户等级不存在或无权访问');
  }
  const wanted = [...new Set(labelIds)];
  if (wanted.length > 0) {
    const rows = await tx
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.agencyId, agencyId), inArray(labels.id, wanted)));
    if (rows.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, '标签不存在或无权访问');
  }
}

type CredentialColumns = Pick<
  typeof enterprises.$inferInsert,
  | 'loginType'
  | 'xdzswjDlzh'
  | 'xdzswjPassEnc'
  | 'xdzswjSfbm'
  | 'dlfs'
  | 'dlId'
  | 'dlPasswordEnc'
  | 'reportPasswordEnc'
  | 'agentLoginAccount'
  | 'agentLoginPasswordEnc'
  | 'agentLoginQysh'
>;

/** The columns a credential input changes; secrets encrypted. Fields left out are not touched. */
export function credentialColumns(key: Buffer, c: CredentialInput | undefined): CredentialColumns {
  const out: CredentialColumns = {};
  if (!c) return out;
  const secret = (v: string | undefined) => (v === undefined ? undefined : encrypt(key, v));
  if (c.login_type !== undefined) out.loginType = c.login_type;
  if (c.xdzswj_dlzh !== undefined) out.xdzswjDlzh = c.xdzswj_dlzh;
  if (c.xdzswj_pass !== undefined) out.xdzswjPassEnc = secret(c.xdzswj_pass);
  if (c.xdzswj_sfbm !== undefined) out.xdzswjSfbm = c.xdzswj_sfbm;
  if (c.dlfs !== undefined) out.dlfs = c.dlfs;
  if (c.dl_id !== undefined) out.dlId = c.dl_id;
  if (c.dl_password !== undefined) out.dlPasswordEnc = secret(c.dl_password);
  if (c.report_password !== undefined) out.reportPasswordEnc = secret(c.report_password);
  if (c.agent_login_account !== undefined) out.agentLoginAccount = c.agent_login_account;
  if (c.agent_login_password !== undefined) out.agentLoginPasswordEnc = secret(c.agent_login_password);
  if (c.agent_login_qysh !== undefined) out.agentLoginQysh = normQysh(c.agent_login_qysh);
  return out;
}

/** Names of the credential fields an input sets (for the audit log; never the values). */
export const credentialFieldsSet = (c: CredentialInput | undefined) =>
  c ? Object.entries(c).flatMap(([k, v]) => (v === undefined ? [] : [k])) : [];

/** Stored credentials as shown: account names masked, passwords as stars. */
export function maskedCredentials(e: EnterpriseRow): Credentials {
  return {
    login_type: e.loginType,
    xdzswj_dlzh: mask(e.xdzswjDlzh),
    xdzswj_pass: maskSecret(e.xdzswjPassEnc),
    xdzswj_sfbm: e.xdzswjSfbm,
    dlfs: e.dlfs,
    dl_id: mask(e.dlId),
    dl_password: maskSecret(e.dlPasswordEnc),
    report_password: maskSecret(e.reportPasswordEnc),
    agent_login_account: mask(e.agentLoginAccount),
    agent_login_password: maskSecret(e.agentLoginPasswordEnc),
    agent_login_qysh: e.agentLoginQysh,
  };
}

/** Stored credentials in clear (the reveal call only). */
export function plainCredentials(key: Buffer, e: EnterpriseRow): Credentials {
  return {
    login_type: e.loginType,
    xdzswj_dlzh: e.xdzswjDlzh,
    xdzswj_pass: decrypt(key, e.xdzswjPassEnc),
    xdzswj_sfbm: e.xdzswjSfbm,
    dlfs: e.dlfs,
    dl_id: e.dlId,
    dl_password: decrypt(key, e.dlPasswordEnc),
    report_password: decrypt(key, e.reportPasswordEnc),
    agent_login_account: e.agentLoginAccount,
    agent_login_password: decrypt(key, e.agentLoginPasswordEnc),
    agent_login_qysh: e.agentLoginQysh,
  };
}

export const SECRET_FIELDS: readonly string[] = CREDENTIAL_SECRETS;

/** Contacts as stored: one primary at most (the first when none is marked). */
export function normContacts(list: EnterpriseInput['contacts']) {
  let primarySeen = false;
  const marked = list.some((c) => c.isPrimary);
  return list.map((c, i) => {
    const isPrimary = !primarySeen && (marked ? c.isPrimary : i === 0);
    if (isPrimary) primarySeen = true;
    return { ...c, isPrimary };
  });
}

/** Replaces the enterprise's contacts, shareholders and labels with the input's. */
export async function replaceChildren(tx: Tx, agencyId: number, enterpriseId: number, input: EnterpriseInput) {
  await tx.delete(enterpriseContacts).where(eq(enterpriseContacts.enterpriseId, enterpriseId));
  await tx.delete(enterpriseShareholders).where(eq(enterpriseShareholders.enterpriseId, enterpriseId));
  await tx.delete(enterpriseLabels).where(eq(enterpriseLabels.enterpriseId, enterpriseId));
  const contacts = normContacts(input.contacts);
  if (contacts.length > 0) {
    await tx.insert(enterpriseContacts).values(contacts.map((c) => ({ ...c, agencyId, enterpriseId })));
  }
  if (input.shareholders.length > 0) {
    await tx
      .insert(enterpriseShareholders)
      .values(input.shareholders.map((h) => ({ agencyId, enterpriseId, name: h.name, share: h.share.toFixed(2) })));
  }
  const labelIds = [...new Set(input.labelIds)];
  if (labelIds.length > 0) {
    await tx.insert(enterpriseLabels).values(labelIds.map((labelId) => ({ agencyId, enterpriseId, labelId })));
  }
}

/** Checks everything about an enterprise form that needs the database; returns the stored tax number. */
export async function validateInput(
  tx: Queryable,
  session: SessionCtx & { agencyId: number },
  input: EnterpriseInput,
  exceptId?: number,
) {
  checkRegion(input.sssf, input.ssds, input.ssqx);
  await assertGradeAndLabels(tx, session.agencyId, input.gradeId, input.labelIds);
  const qysh = normQysh(input.qysh);
  await assertQyshFree(tx, session, qysh, exceptId);
  return { qysh, warning: qyshWarning(qysh) };
}

/** The plain columns of an enterprise form. */
export const baseColumns = (input: EnterpriseInput, qysh: string) => ({
  qymc: input.qymc,
  qysh,
  qyxz: input.qyxz,
  sssf: input.sssf,
  ssds: input.ssds,
  ssqx: input.ssqx,
  address: input.address,
  fjh: input.fjh,
  remark: input.remark,
  gradeId: input.gradeId,
});

// --- benefits ------------------------------------------------------------------------------------

/** What the benefit check of business.md §6 needs to decide for these enterprises and this feature. */
export async function equityFacts(
  tx: Queryable,
  session: SessionCtx,
  agencyId: number,
  menuid: number,
  ids: readonly number[],
): Promise<EquityFacts> {
  const [menu] = await tx.select().from(equityMenus).where(eq(equityMenus.menuid, menuid));
  const [org] = await tx
    .select({ qyzt: organisations.qyzt, sfgxbzts: organisations.sfgxbzts })
    .from(organisations)
    .where(eq(organisations.id, agencyId));
  const rows =
    ids.length === 0
      ? []
      : await tx
          .select({ id: enterprises.id, qyzt: enterprises.qyzt, qylb: enterprises.qylb })
          .from(enterprises)
          .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, [...ids])));
  const needle = `,${menuid},`;
  return {
    menuid,
    entry: Boolean(menu),
    iscontrol: menu?.iscontrol ?? '',
    anqyflag: menu?.anqyflag ?? '',
    agencyQyzt: org?.qyzt ?? '',
    sfgxbzts: org?.sfgxbzts ?? '',
    kjgc: session.orgType === 'kjgc',
    total: ids.length,
    entitledIds: rows.filter((r) => r.qylb.includes(needle)).map((r) => r.id),
    enterpriseQyzt: ids.length === 1 ? (rows[0]?.qyzt ?? null) : null,
  };
}

/**
 * The server's side of the benefit check: an action goes on only for enterprises the check lets
 * through (the page has already offered the 权益提示 dialogs and sends only those).
 */
export async function enforceEquity(
  tx: Queryable,
  session: SessionCtx,
  agencyId: number,
  menuid: number,
  ids: readonly number[],
) {
  const facts = await equityFacts(tx, session, agencyId, menuid, ids);
  const decision = equityDecision(facts, ids);
  if (decision.error) throw new AppError(CODE.NO_PERMISSION, decision.error);
  if (decision.proceedIds) return;
  const entitled = new Set(facts.entitledIds);
  throw new AppError(CODE.NO_PERMISSION, EQUITY_MSG.refused(ids.filter((id) => !entitled.has(id)).length));
}

// --- dispatch messages -----------------------------------------------------------------------------

/** 【客户分配提醒】 to the new owner (per their message settings), unless they gave it to themself. */
export async function notifyAssigned(
  tx: Tx,
  push: PushHub,
  afterCommit: (fn: () => Promise<void>) => void,
  session: SessionCtx,
  agencyId: number,
  assignee: number,
  rows: readonly Pick<EnterpriseRow, 'id' | 'qymc'>[],
) {
  if (assignee === session.userId || rows.length === 0) return;
  const first = rows[0];
  if (!first) return;
  const names = rows.length === 1 ? first.qymc : `${first.qymc}等${rows.length}家`;
  await notify(tx, push, afterCommit, {
    event: 'fp',
    agencyId,
    userIds: [assignee],
    content: `【客户分配提醒】您有新分配的客户：${names}`,
    msgStyleSmall: 'customer',
    targetId: first.id,
  });
}
