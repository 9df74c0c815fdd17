import { CODE, provinceOf, type WhitelistType } from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';
import { organisations, whitelistOrders } from '../db/schema/index.js';
import { AppError } from '../plugins/errors.js';
import type { SessionCtx } from '../plugins/session.js';

/**
 * White-list orders (foundation.md §6, tax-bureau.md §6): the one place that decides whether a list
 * switches a feature on. An order names an agency (its id) or a province (6-digit code); an agency on
 * none of a type has that feature off: absent from its menu (getRouters) and refused by the server.
 */

/** What is refused, per list, when the caller's agency is not on it. */
export const WHITELIST_OFF_MSG: Record<WhitelistType, string> = {
  lbsjc: '本机构未开通漏报检查功能，请联系服务商开通',
  wsbsdt: '本机构未开通未申报查询功能，请联系服务商开通',
  dljghdkjgcmenu: '本机构未开通会计工厂功能，请联系服务商开通',
  kxdlmmjy: '该企业所在省份未开通可信登录密码校验',
};

/** The types on which any of `busiVals` (agency ids, province codes) is listed. */
async function typesFor(tx: Queryable, busiVals: string[]): Promise<Set<string>> {
  if (!busiVals.length) return new Set();
  const rows = await tx
    .select({ type: whitelistOrders.type })
    .from(whitelistOrders)
    .where(inArray(whitelistOrders.busiVal, busiVals));
  return new Set(rows.map((r) => r.type));
}

/** The white-list types an agency is on: orders naming its id or its province. */
export async function whitelistsOf(tx: Queryable, agencyId: number | null): Promise<Set<string>> {
  if (agencyId === null) return new Set();
  const [org] = await tx.select({ sssf: organisations.sssf }).from(organisations).where(eq(organisations.id, agencyId));
  return typesFor(
    tx,
    [String(agencyId), provinceOf(org?.sssf)].filter((v): v is string => Boolean(v)),
  );
}

/**
 * The lists that apply to the caller: those of the agency they act for. A factory (kjgc) is the other
 * side of an agency's dljghdkjgcmenu: its own 会计工厂管理 page (its agencies) is always there.
 */
export async function whitelistsFor(tx: Queryable, session: Pick<SessionCtx, 'agencyId' | 'orgType'>) {
  const lists = await whitelistsOf(tx, session.agencyId);
  if (session.orgType === 'kjgc') lists.add('dljghdkjgcmenu');
  return lists;
}

/** Refuses (460 in the envelope, with the list's reason) when the agency is not on `type`; returns its lists. */
export async function requireWhitelist(
  tx: Queryable,
  agencyId: number | null,
  type: WhitelistType,
  msg: string = WHITELIST_OFF_MSG[type],
): Promise<Set<string>> {
  const lists = await whitelistsOf(tx, agencyId);
  if (!lists.has(type)) throw new AppError(CODE.NO_PERMISSION, msg);
  return lists;
}

/** Whether a province (an enterprise's sssf) is on `type` (kxdlmmjy is decided by the enterprise's province). */
export async function provinceWhitelisted(tx: Queryable, sssf: string, type: WhitelistType): Promise<boolean> {
  const province = provinceOf(sssf);
  if (!province) return false;
  const [row] = await tx
    .select({ id: whitelistOrders.id })
    .from(whitelistOrders)
    .where(and(eq(whitelistOrders.type, type), eq(whitelistOrders.busiVal, province)))
    .limit(1);
  return row !== undefined;
}
