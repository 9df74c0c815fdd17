import {
  BureauError,
  type BureauInvoice,
  CODE,
  type ComputedInvoice,
  INVOICE_OUT_MSG,
  type IssueInvoiceInput,
  kpfsLabel,
  type OutInvoiceDetail,
  type OutInvoiceRow,
  rateName,
  rmbUpper,
  taxFenToYuan,
  taxYuanToFen,
} from '@dzy/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { invoiceBuyers, invoiceLines, invoiceRequests, invoices, users } from '../../db/schema/index.js';
import type { InvoiceState } from '../../db/schema/invoice.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { contractBlocks } from '../contract/contract-status.js';
import { agencyOf, type EnterpriseRow, requireEnterprise } from '../customer/customer.repo.js';
import { invoicingMethods } from '../customer/master-data.routes.js';
import { type TxAccess, withBureauSession } from '../declare/bureau-login.js';
import type { InvoiceInput } from '../invoice-store/invoice-store.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** The client of an invoice call: in the tenant and the caller's data scope, with a tax number. */
export async function invoiceClient(tx: Queryable, session: SessionCtx, aeiId: number): Promise<EnterpriseRow> {
  const ent = await requireEnterprise(tx, session, aeiId);
  if (!ent.qysh) throw new AppError(CODE.BAD_REQUEST, INVOICE_OUT_MSG.noTaxNumber);
  return ent;
}

/** The contract reminder at level 2 that blocks 发票 for this client ('' when none). */
export async function invoiceBlock(tx: Queryable, ent: EnterpriseRow, today: string): Promise<string> {
  const blocks = await contractBlocks(tx, ent.agencyId, [ent.id], 'fp', today);
  return blocks.get(ent.id) ?? '';
}

/**
 * The client's 开票方式 (kpfs: its own, else the agency's default) and why it cannot be issued with here.
 * This product issues 数电票 through the bureau only, so '1' — and a client with neither set, as every
 * client was before kpfs existed — can issue; 税控盘/UKey/代开 and 不开票 are refused (docs/decisions/customer.md).
 */
export async function invoiceMethod(
  tx: Queryable,
  ent: EnterpriseRow,
): Promise<{ kpfs: string; label: string; refusal: string }> {
  const { byId } = await invoicingMethods(tx, ent.agencyId, [ent.id]);
  const kpfs = byId.get(ent.id)?.effective || '1';
  const label = kpfsLabel(kpfs);
  const refusal = kpfs === '1' ? '' : kpfs === '0' ? INVOICE_OUT_MSG.kpfsNone : INVOICE_OUT_MSG.kpfsNotDigital(label);
  return { kpfs, label, refusal };
}

/** Refuses an issue whose method the client does not have (the form's, when sent) or cannot issue here. */
export async function requireIssuableMethod(tx: Queryable, ent: EnterpriseRow, asked?: string): Promise<void> {
  const m = await invoiceMethod(tx, ent);
  if (asked !== undefined && asked !== m.kpfs)
    throw new AppError(CODE.BAD_REQUEST, INVOICE_OUT_MSG.kpfsChanged(m.label));
  if (m.refusal) throw new AppError(CODE.BAD_REQUEST, m.refusal);
}

const STATE_OF: Readonly<Record<string, InvoiceState>> = { '0': 'normal', '1': 'reversed', '2': 'void', '3': 'red' };
const fen = (y: string) => taxYuanToFen(y) ?? 0;

/** A bureau invoice as the store keeps it (issued: the other party is the buyer). */
export function fromBureau(inv: BureauInvoice): InvoiceInput {
  return {
    fphm: inv.fphm,
    kprq: inv.kprq,
    fplx: inv.fplx,
    state: STATE_OF[inv.zt] ?? 'normal',
    lzfphm: inv.lzfphm,
    cpName: inv.gfmc,
    cpTaxNo: inv.gfsh,
    amount: fen(inv.hjje),
    tax: fen(inv.hjse),
    total: fen(inv.jshj),
    lines: inv.lines.map((l) => ({
      xh: l.xh,
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      sl: l.sl,
      dj: l.dj,
      amount: fen(l.je),
      rate: l.slv,
      tax: fen(l.se),
    })),
  };
}

/** The bureau's fp/kp body of a computed invoice (without the request id). */
export function kpBody(
  c: ComputedInvoice,
  form: {
    fplx: 'zp' | 'pp';
    bz: string;
    buyer: { name: string; taxNo: string; addressPhone: string; bankAccount: string };
  },
  kpr: string,
): Omit<IssueInvoiceInput, 'requestId'> {
  return {
    fplx: form.fplx,
    gfmc: form.buyer.name,
    gfsh: form.buyer.taxNo,
    gfdz: form.buyer.addressPhone,
    gfyh: form.buyer.bankAccount,
    bz: form.bz,
    kpr,
    lines: c.lines.map((l) => ({
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      ...(l.sl ? { sl: l.sl, dj: l.dj } : {}),
      je: taxFenToYuan(l.amount),
      slv: l.rate as IssueInvoiceInput['lines'][number]['slv'],
      se: taxFenToYuan(l.tax),
    })),
  };
}

type InvoiceRow = typeof invoices.$inferSelect;

/** List rows by id (any order), with the issuer's name and the rates of the lines. */
export async function rowsById(
  tx: Queryable,
  agencyId: number,
  ids: readonly number[],
): Promise<(OutInvoiceRow & { id: number })[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ inv: invoices, kpr: users.hymc })
    .from(invoices)
    .leftJoin(users, eq(users.id, invoices.issuedBy))
    .where(and(eq(invoices.agencyId, agencyId), inArray(invoices.id, [...ids])));
  const rates = rowsOf<{ invoice_id: number; rates: string }>(
    await tx.execute(sql`
      select invoice_id, string_agg(distinct rate, ',') as rates from invoice_lines
      where agency_id = ${agencyId} and invoice_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
      group by invoice_id`),
  );
  const rateOf = new Map(rates.map((r) => [Number(r.invoice_id), r.rates]));
  return rows.map(({ inv, kpr }) => toRow(inv, kpr ?? '', rateOf.get(inv.id) ?? ''));
}

function toRow(inv: InvoiceRow, kpr: string, rates: string): OutInvoiceRow & { id: number } {
  return {
    id: inv.id,
    fphm: inv.fphm,
    kprq: inv.kprq,
    fplx: inv.fplx,
    state: inv.state,
    lzfphm: inv.lzfphm,
    gfmc: inv.cpName,
    gfsh: inv.cpTaxNo,
    hjje: taxFenToYuan(inv.amount),
    hjse: taxFenToYuan(inv.tax),
    jshj: taxFenToYuan(inv.total),
    slv: rates.split(',').filter(Boolean).sort().reverse().map(rateName).join('、'),
    source: inv.source,
    kpr,
  };
}

/** An issued (销项) invoice of the tenant whose client the caller may see, or 404. */
export async function findOutInvoice(tx: Queryable, session: SessionCtx, id: number) {
  const [inv] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.agencyId, agencyOf(session)), eq(invoices.id, id), eq(invoices.direction, 'out')));
  if (!inv) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.notFound);
  let ent: EnterpriseRow;
  try {
    ent = await requireEnterprise(tx, session, inv.enterpriseId);
  } catch {
    throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.notFound);
  }
  return { inv, ent };
}

/** The whole invoice: lines, seller, what its issuing asked (remark, buyer's address and bank), the 大写. */
export async function detailOf(tx: Queryable, inv: InvoiceRow, ent: EnterpriseRow): Promise<OutInvoiceDetail> {
  const [row] = await rowsById(tx, inv.agencyId, [inv.id]);
  if (!row) throw new AppError(CODE.NOT_FOUND, INVOICE_OUT_MSG.notFound);
  const lines = await tx
    .select()
    .from(invoiceLines)
    .where(and(eq(invoiceLines.agencyId, inv.agencyId), eq(invoiceLines.invoiceId, inv.id)))
    .orderBy(invoiceLines.xh);
  const [asked] = await tx
    .select({ payload: invoiceRequests.payload })
    .from(invoiceRequests)
    .where(and(eq(invoiceRequests.agencyId, inv.agencyId), eq(invoiceRequests.invoiceId, inv.id)))
    .limit(1);
  const p = (asked?.payload ?? {}) as Record<string, unknown>;
  const str = (k: string) => (typeof p[k] === 'string' ? (p[k] as string) : '');
  const [red] =
    inv.state === 'reversed'
      ? await tx
          .select({ fphm: invoices.fphm })
          .from(invoices)
          .where(
            and(
              eq(invoices.agencyId, inv.agencyId),
              eq(invoices.enterpriseId, inv.enterpriseId),
              eq(invoices.direction, 'out'),
              eq(invoices.lzfphm, inv.fphm),
            ),
          )
          .limit(1)
      : [];
  const { id: _id, ...rest } = row;
  return {
    ...rest,
    id: inv.id,
    aeiId: ent.id,
    xfmc: ent.qymc,
    xfsh: ent.qysh,
    gfdzdh: str('gfdz'),
    gfyhzh: str('gfyh'),
    bz: str('bz'),
    jshjUpper: rmbUpper(inv.total),
    hzfphm: red?.fphm ?? '',
    lines: lines.map((l) => ({
      xh: l.xh,
      spmc: l.spmc,
      ssflbm: l.ssflbm,
      ggxh: l.ggxh,
      dw: l.dw,
      sl: l.sl,
      dj: l.dj,
      je: taxFenToYuan(l.amount),
      slv: rateName(l.rate),
      se: taxFenToYuan(l.tax),
    })),
  };
}

/** Keeps the buyer among the client's remembered buyers (by tax number), as used now. */
export async function rememberBuyer(
  tx: Queryable,
  ent: EnterpriseRow,
  b: { name: string; taxNo: string; addressPhone: string; bankAccount: string; email: string },
) {
  const values = { name: b.name, addressPhone: b.addressPhone, bankAccount: b.bankAccount, email: b.email };
  await tx
    .insert(invoiceBuyers)
    .values({ agencyId: ent.agencyId, enterpriseId: ent.id, taxNo: b.taxNo, ...values })
    .onConflictDoUpdate({
      target: [invoiceBuyers.agencyId, invoiceBuyers.enterpriseId, invoiceBuyers.taxNo],
      set: { ...values, lastUsedAt: new Date() },
    });
}

export type BureauOutcome<T> = { ok: true; value: T } | { ok: false; lost: boolean; msg: string };

/**
 * One bureau call with the client's session. A login the bureau refuses is a plain failure (nothing was
 * asked); a lost or busy reply is `lost` (the request may have been done: retry with the same id).
 */
export async function atBureau<T>(
  deps: Deps,
  db: TxAccess,
  ent: EnterpriseRow,
  fn: (session: string) => Promise<T>,
): Promise<BureauOutcome<T>> {
  try {
    const r = await withBureauSession(deps, db, ent, fn);
    return r.ok ? { ok: true, value: r.value } : { ok: false, lost: false, msg: r.msg };
  } catch (err) {
    if (err instanceof BureauError) return { ok: false, lost: true, msg: err.message };
    throw err;
  }
}

export type { Tx };
