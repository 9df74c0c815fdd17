import {
  type BureauInvoice,
  CODE,
  type ComputedInvoice,
  computeInvoice,
  INVOICE_OUT_MSG,
  type IssueInvoiceInput,
  type IssueResult,
  type RedConfirmationResult,
  type RedReason,
  taxFenToYuan,
} from '@dzy/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../db/client.js';
import { invoiceRequests, type invoices, users } from '../../db/schema/index.js';
import type { InvoiceRequestKind } from '../../db/schema/invoice.js';
import type { Deps } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { EnterpriseRow } from '../customer/customer.repo.js';
import type { TxAccess } from '../declare/bureau-login.js';
import { saveInvoices } from '../invoice-store/invoice-store.js';
import { atBureau, fromBureau } from './invoice.repo.js';

type RequestRow = typeof invoiceRequests.$inferSelect;

/** The computed invoice of a form, or a refusal with the first line's problem. */
export function computedOrRefuse(
  form: Parameters<typeof computeInvoice>[0],
  ent: Pick<EnterpriseRow, 'qyxz'>,
): ComputedInvoice {
  const c = computeInvoice(form, ent.qyxz === '0' ? '0' : '1');
  if (!c.ok) {
    const e = c.errors[0];
    throw new AppError(CODE.BAD_REQUEST, e ? `第${e.xh}行：${e.msg}` : INVOICE_OUT_MSG.noLines);
  }
  return c.invoice;
}

export async function userName(tx: Queryable, userId: number): Promise<string> {
  const [u] = await tx.select({ hymc: users.hymc, phone: users.phone }).from(users).where(eq(users.id, userId));
  return u?.hymc || u?.phone || '';
}

/** A request by its id in the tenant (any kind), if any. */
export async function requestById(tx: Queryable, agencyId: number, requestId: string) {
  const [r] = await tx
    .select()
    .from(invoiceRequests)
    .where(and(eq(invoiceRequests.agencyId, agencyId), eq(invoiceRequests.requestId, requestId)));
  return r ?? null;
}

/** Commits a pending request before its bureau call (at most once: the id is what the bureau dedupes on). */
export async function newRequest(
  tx: Tx,
  v: {
    agencyId: number;
    enterpriseId: number;
    requestId?: string;
    kind: InvoiceRequestKind;
    payload: Record<string, unknown>;
    createdBy: number;
    runId?: number | null;
    state?: 'pending' | 'failed';
    msg?: string;
  },
): Promise<RequestRow> {
  const [row] = await tx
    .insert(invoiceRequests)
    .values({
      agencyId: v.agencyId,
      enterpriseId: v.enterpriseId,
      ...(v.requestId ? { requestId: v.requestId } : {}),
      kind: v.kind,
      payload: v.payload,
      createdBy: v.createdBy,
      runId: v.runId ?? null,
      state: v.state ?? 'pending',
      msg: v.msg ?? '',
    })
    .returning();
  if (!row) throw new Error('invoice request insert returned nothing');
  return row;
}

const finish = (tx: Tx, id: number, set: Partial<RequestRow>) =>
  tx
    .update(invoiceRequests)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(invoiceRequests.id, id));

export type SendOutcome =
  | { status: 'done'; invoiceId: number; invoice: BureauInvoice; again: boolean }
  | { status: 'refused'; msg: string }
  | { status: 'lost'; msg: string };

/**
 * Sends a pending blue request (fp/kp with its own request id) and records the outcome: the invoice
 * saved through the store and linked, or the refusal; a lost reply leaves it sending for a retry. The
 * request is marked sending (committed) before fp/kp; one found sending (a crash, a lost reply) is asked
 * for first by its request id (fp/kpcx) and issued only when the bureau has none — never a second kp.
 */
export async function sendBlue(
  deps: Deps,
  inTx: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  ent: EnterpriseRow,
  req: RequestRow,
  userId: number,
): Promise<SendOutcome> {
  // A batch's request keeps its file rows beside the call's body (for the failure file): not sent.
  const { rows: _rows, parsed: _parsed, ...kp } = req.payload as Record<string, unknown>;
  const body = { ...(kp as unknown as Omit<IssueInvoiceInput, 'requestId'>), requestId: req.requestId };
  const uncertain = req.state === 'sending';
  if (!uncertain) await inTx((tx) => finish(tx, req.id, { state: 'sending' }));
  const r = await atBureau(deps, inTx as TxAccess, ent, async (s): Promise<IssueResult> => {
    const known = uncertain ? await deps.bureau.issuedInvoice(s, req.requestId) : null;
    return known ? { status: 'alreadyIssued', invoice: known } : deps.bureau.issueInvoice(s, body);
  });
  if (!r.ok) {
    if (r.lost) return { status: 'lost', msg: r.msg };
    await inTx((tx) => finish(tx, req.id, { state: 'failed', msg: r.msg }));
    return { status: 'refused', msg: r.msg };
  }
  const res = r.value;
  if (res.status === 'refused') {
    await inTx((tx) => finish(tx, req.id, { state: 'failed', msg: res.msg }));
    return { status: 'refused', msg: res.msg };
  }
  const invoiceId = await inTx(async (tx) => {
    const saved = await saveInvoices(
      tx,
      { agencyId: ent.agencyId, enterpriseId: ent.id, direction: 'out', source: 'issued', issuedBy: userId },
      [fromBureau(res.invoice)],
    );
    const id = saved.ids.get(res.invoice.fphm) as number;
    await finish(tx, req.id, { state: 'done', invoiceId: id, msg: '' });
    return id;
  });
  return { status: 'done', invoiceId, invoice: res.invoice, again: res.status === 'alreadyIssued' };
}

/**
 * 红冲 of a stored blue invoice: the 红字确认单 (fp/hzqrd) then the red invoice (fp/hckp), each a request
 * committed and marked sending before its call. A request already made for this blue invoice (same 确认单,
 * same red invoice) that may have reached the bureau is asked for first by its own id (fp/hzqrdcx,
 * fp/kpcx) and sent again only when the bureau has none of it: at most one submission each, without
 * leaning on the bureau's duplicate refusal (issue 26 point 6; docs/decisions/filing.md).
 */
export async function redLetter(
  deps: Deps,
  inTx: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  ent: EnterpriseRow,
  blue: typeof invoices.$inferSelect,
  opts: { reason: RedReason; requestId: string; userId: number },
): Promise<{ qrdbh: string; redId: number }> {
  // 1. the 红字确认单
  const confirm = await inTx(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${7_015}, ${blue.id})`);
    const [open] = await tx
      .select()
      .from(invoiceRequests)
      .where(
        and(
          eq(invoiceRequests.agencyId, blue.agencyId),
          eq(invoiceRequests.enterpriseId, blue.enterpriseId),
          eq(invoiceRequests.kind, 'redConfirm'),
          ne(invoiceRequests.state, 'failed'),
          sql`${invoiceRequests.payload}->>'lzfphm' = ${blue.fphm}`,
        ),
      )
      .limit(1);
    if (open) return open;
    const taken = await requestById(tx, blue.agencyId, opts.requestId);
    return newRequest(tx, {
      agencyId: blue.agencyId,
      enterpriseId: blue.enterpriseId,
      ...(taken ? {} : { requestId: opts.requestId }),
      kind: 'redConfirm',
      payload: {
        lzfphm: blue.fphm,
        reason: opts.reason,
        hjje: taxFenToYuan(-blue.amount),
        hjse: taxFenToYuan(-blue.tax),
        jshj: taxFenToYuan(-blue.total),
      },
      createdBy: opts.userId,
    });
  });
  const reason = ((confirm.payload as { reason?: RedReason }).reason ?? opts.reason) as RedReason;
  // Sent before (a crash, a lost reply, or 待购方确认 then): ask for it, also to learn its zt now.
  const askConfirm = confirm.state !== 'pending';
  if (!askConfirm) await inTx((tx) => finish(tx, confirm.id, { state: 'sending' }));
  const qr = await atBureau(deps, inTx as TxAccess, ent, async (s): Promise<RedConfirmationResult> => {
    const known = askConfirm ? await deps.bureau.redConfirmationFor(s, confirm.requestId) : null;
    return known
      ? { status: 'alreadyRequested', qrd: known }
      : deps.bureau.requestRedConfirmation(s, { requestId: confirm.requestId, lzfphm: blue.fphm, reason });
  });
  if (!qr.ok) {
    if (qr.lost) throw new AppError(CODE.CONFLICT, INVOICE_OUT_MSG.pending);
    await inTx((tx) => finish(tx, confirm.id, { state: 'failed', msg: qr.msg }));
    throw new AppError(CODE.BAD_REQUEST, qr.msg);
  }
  const q = qr.value;
  if (q.status === 'refused') {
    await inTx((tx) => finish(tx, confirm.id, { state: 'failed', msg: q.msg }));
    throw new AppError(CODE.BAD_REQUEST, q.msg);
  }
  const qrdbh = q.qrd.qrdbh;
  await inTx((tx) => finish(tx, confirm.id, { state: 'done', qrdbh }));
  if (q.qrd.zt !== '已确认') throw new AppError(CODE.CONFLICT, INVOICE_OUT_MSG.redPending);

  // 2. the red invoice
  const red = await inTx(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${7_015}, ${blue.id})`);
    const [open] = await tx
      .select()
      .from(invoiceRequests)
      .where(
        and(
          eq(invoiceRequests.agencyId, blue.agencyId),
          eq(invoiceRequests.kind, 'red'),
          ne(invoiceRequests.state, 'failed'),
          eq(invoiceRequests.qrdbh, qrdbh),
        ),
      )
      .limit(1);
    if (open) return open;
    const row = await newRequest(tx, {
      agencyId: blue.agencyId,
      enterpriseId: blue.enterpriseId,
      kind: 'red',
      payload: { qrdbh, lzfphm: blue.fphm, reason },
      createdBy: opts.userId,
    });
    await finish(tx, row.id, { qrdbh });
    return row;
  });
  if (red.state === 'done' && red.invoiceId) return { qrdbh, redId: red.invoiceId };
  const askRed = red.state === 'sending';
  if (!askRed) await inTx((tx) => finish(tx, red.id, { state: 'sending' }));
  const hc = await atBureau(deps, inTx as TxAccess, ent, async (s): Promise<IssueResult> => {
    const known = askRed ? await deps.bureau.issuedInvoice(s, red.requestId) : null;
    return known
      ? { status: 'alreadyIssued', invoice: known }
      : deps.bureau.issueRedInvoice(s, { requestId: red.requestId, qrdbh });
  });
  if (!hc.ok) {
    if (hc.lost) throw new AppError(CODE.CONFLICT, INVOICE_OUT_MSG.pending);
    await inTx((tx) => finish(tx, red.id, { state: 'failed', msg: hc.msg }));
    throw new AppError(CODE.BAD_REQUEST, hc.msg);
  }
  const h = hc.value;
  if (h.status === 'refused') {
    await inTx((tx) => finish(tx, red.id, { state: 'failed', msg: h.msg }));
    throw new AppError(CODE.BAD_REQUEST, h.msg);
  }
  const redId = await inTx(async (tx) => {
    const scope = {
      agencyId: ent.agencyId,
      enterpriseId: ent.id,
      direction: 'out' as const,
      source: 'issued' as const,
      issuedBy: opts.userId,
    };
    const saved = await saveInvoices(tx, scope, [fromBureau(h.invoice)]);
    // The blue one is now 已红冲 (the store updates a known invoice's state only).
    await saveInvoices(tx, { ...scope, source: blue.source, issuedBy: blue.issuedBy }, [
      {
        fphm: blue.fphm,
        kprq: blue.kprq,
        fplx: blue.fplx,
        state: 'reversed',
        lzfphm: blue.lzfphm,
        cpName: blue.cpName,
        cpTaxNo: blue.cpTaxNo,
        amount: blue.amount,
        tax: blue.tax,
        total: blue.total,
        lines: [],
      },
    ]);
    const id = saved.ids.get(h.invoice.fphm) as number;
    // The bureau's 备注 of the red invoice (被红冲蓝字数电发票号码 …, 红字发票信息确认单编号 …) is kept with the
    // request, where the invoice's detail reads its 备注 (issue 28 point 10).
    const payload = { ...((red.payload ?? {}) as Record<string, unknown>), bz: h.invoice.bz };
    await finish(tx, red.id, { state: 'done', invoiceId: id, msg: '', payload });
    return id;
  });
  return { qrdbh, redId };
}
