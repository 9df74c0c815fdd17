import {
  CODE,
  FILING_TAX_TYPE_NAMES,
  FILING_TAX_TYPES,
  MESSAGE_EVENT_TEXT,
  MOBILE_RE,
  messageText,
  SBQR_MSG,
  SBQR_PAGE_PATH,
  type SbqrView,
  sbqrAnswerCall,
  sbqrGetCall,
  sbqrSmsText,
  sendSbqrCall,
} from '@dzy/shared';
import { and, asc, desc, eq, gt, inArray, ne } from 'drizzle-orm';
import { agencyScope, setScope, type Tx } from '../../db/client.js';
import {
  enterpriseContacts,
  enterprises,
  filingConfirmations,
  filingPlanItems,
  filingPlans,
  organisations,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Deps, type Served, type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { SMS_BUDGET_MSG } from '../../plugins/sms.js';
import { clientsInScope } from '../filing-evidence/evidence.repo.js';
import { notify } from '../message/notify.js';
import { confirmSettingsOf, fenToYuan } from './settings.js';
import { newNonce, signSbqrToken, verifySbqrToken } from './token.js';

const DAY_MS = 86_400_000;

const maskPhone = (p: string) => (p.length >= 7 ? `${p.slice(0, 3)}****${p.slice(-4)}` : '****');

/** A plan of the caller's agency the caller may act on: their own, or any when they see the whole agency. */
async function planOf(tx: Tx, session: SessionCtx, planId: number) {
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.planNotFound);
  const whole = session.isAdmin || session.role === 1;
  const [plan] = await tx
    .select()
    .from(filingPlans)
    .where(
      and(
        eq(filingPlans.agencyId, session.agencyId),
        eq(filingPlans.id, planId),
        whole ? undefined : eq(filingPlans.userId, session.userId),
      ),
    );
  if (!plan) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.planNotFound);
  return plan;
}

/** The returns of a client in a plan that the client is asked about (every one not dropped). */
function itemsOf(tx: Tx, agencyId: number, planId: number, enterpriseIds: number[]) {
  return tx
    .select({
      id: filingPlanItems.id,
      enterpriseId: filingPlanItems.enterpriseId,
      taxType: filingPlanItems.taxType,
      skssqq: filingPlanItems.skssqq,
      skssqz: filingPlanItems.skssqz,
      srze: filingPlanItems.srze,
      ybtse: filingPlanItems.ybtse,
      state: filingPlanItems.state,
    })
    .from(filingPlanItems)
    .where(
      and(
        eq(filingPlanItems.agencyId, agencyId),
        eq(filingPlanItems.planId, planId),
        inArray(filingPlanItems.enterpriseId, enterpriseIds),
        ne(filingPlanItems.state, 'dropped'),
      ),
    )
    .orderBy(asc(filingPlanItems.enterpriseId), asc(filingPlanItems.taxType), asc(filingPlanItems.skssqq));
}

const sendSbqr = serve(sendSbqrCall, async ({ body, session, tx, req, deps }) => {
  const plan = await planOf(tx, session, body.planId);
  const agencyId = plan.agencyId;
  const wanted = [...new Set(body.aeiIds)];
  const clients = await tx
    .select({ id: enterprises.id, qymc: enterprises.qymc })
    .from(enterprises)
    .where(and(clientsInScope(session, agencyId), inArray(enterprises.id, wanted)));
  if (clients.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.notYours);
  const names = new Map(clients.map((c) => [c.id, c.qymc]));
  const settings = await confirmSettingsOf(tx, agencyId);
  const items = await itemsOf(tx, agencyId, plan.id, wanted);
  const contacts = await tx
    .select({ enterpriseId: enterpriseContacts.enterpriseId, mobile: enterpriseContacts.mobile })
    .from(enterpriseContacts)
    .where(and(eq(enterpriseContacts.agencyId, agencyId), inArray(enterpriseContacts.enterpriseId, wanted)))
    .orderBy(desc(enterpriseContacts.isPrimary), asc(enterpriseContacts.id));
  // The first contact with a mobile number, the primary contact first.
  const phones = new Map<number, string>();
  for (const c of contacts) {
    const m = c.mobile.replace(/[\s-]/g, '');
    if (MOBILE_RE.test(m) && !phones.has(c.enterpriseId)) phones.set(c.enterpriseId, m);
  }
  // PUBLIC_URL only: a forged Host or X-Forwarded-Host must not put another site into the client's SMS.
  const origin = deps.config.publicUrl;
  const expiresAt = new Date(Date.now() + settings.confirmDays * DAY_MS);
  const skipped: { aeiId: number; qymc: string; reason: string }[] = [];
  const sent: { aeiId: number; confirmationId: number; phone: string; total: string }[] = [];
  let budgetGone = false;
  for (const aeiId of wanted) {
    const qymc = names.get(aeiId) ?? '';
    const mine = items.filter((i) => i.enterpriseId === aeiId);
    const total = mine.reduce((s, i) => s + i.ybtse, 0);
    const phone = phones.get(aeiId);
    let reason = '';
    if (mine.length === 0) reason = SBQR_MSG.noItems;
    else if (mine.every((i) => i.state === 'filed')) reason = SBQR_MSG.allFiled;
    // The client's total decides; a single return at or above the threshold also does (filing with
    // 申报前须客户确认 waits on such a return, so it must always be possible to ask for it).
    else if (
      total < settings.confirmThreshold &&
      !mine.some((i) => i.state !== 'filed' && i.ybtse >= settings.confirmThreshold)
    )
      reason = SBQR_MSG.belowThreshold(fenToYuan(settings.confirmThreshold));
    else if (!phone) reason = SBQR_MSG.noPhone;
    else if (budgetGone) reason = SMS_BUDGET_MSG;
    if (reason || !phone) {
      skipped.push({ aeiId, qymc, reason });
      continue;
    }
    const nonce = newNonce();
    const [row] = await tx
      .insert(filingConfirmations)
      .values({ agencyId, planId: plan.id, enterpriseId: aeiId, phone, nonce, expiresAt, createdBy: session.userId })
      .returning({ id: filingConfirmations.id });
    if (!row) throw new Error('confirmation not created');
    const token = signSbqrToken(deps.config.secretKey, {
      agencyId,
      id: row.id,
      expires: Math.floor(expiresAt.getTime() / 1000),
      nonce,
    });
    const link = `${origin}/#${SBQR_PAGE_PATH}?t=${token}`;
    try {
      await deps.sms.send(
        tx,
        phone,
        sbqrSmsText({
          agencyName: session.orgName ?? '',
          qymc,
          filingMonth: plan.filingMonth,
          total: fenToYuan(total),
          days: settings.confirmDays,
          link,
        }),
        agencyId,
      );
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== CODE.TOO_MANY) throw err;
      // The day's SMS budget is used up: this client and the rest are not sent to (and no link stays).
      budgetGone = true;
      await tx.delete(filingConfirmations).where(eq(filingConfirmations.id, row.id));
      skipped.push({ aeiId, qymc, reason: err.message });
      continue;
    }
    const open = mine.filter((i) => i.state !== 'filed').map((i) => i.id);
    await tx
      .update(filingPlanItems)
      .set({ confirmState: 'sent', updatedAt: new Date() })
      .where(and(eq(filingPlanItems.agencyId, agencyId), inArray(filingPlanItems.id, open)));
    sent.push({ aeiId, confirmationId: row.id, phone: maskPhone(phone), total: fenToYuan(total) });
  }
  await audit(tx, req, session, 'filing.confirm.send', `plan:${plan.id}`, { sent, skipped });
  return { sent: sent.length, skipped };
});

// --- the client's page (public) ---------------------------------------------------------------

/**
 * The confirmation a token names, in a transaction moved into the token's agency: the signature must
 * hold, the link must not have expired, and it must be the confirmation's own (nonce) and the newest
 * sent to that client for the plan. The tenant comes from the verified token and nothing else.
 */
async function confirmationOf(tx: Tx, deps: Deps, token: string) {
  const claims = verifySbqrToken(deps.config.secretKey, token);
  if (!claims) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.invalid);
  if (claims.expires * 1000 <= Date.now()) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.expired);
  await setScope(tx, agencyScope(claims.agencyId));
  const [row] = await tx
    .select()
    .from(filingConfirmations)
    .where(and(eq(filingConfirmations.agencyId, claims.agencyId), eq(filingConfirmations.id, claims.id)));
  if (!row || row.nonce !== claims.nonce) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.invalid);
  if (row.expiresAt.getTime() <= Date.now()) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.expired);
  const [newer] = await tx
    .select({ id: filingConfirmations.id })
    .from(filingConfirmations)
    .where(
      and(
        eq(filingConfirmations.agencyId, row.agencyId),
        eq(filingConfirmations.planId, row.planId),
        eq(filingConfirmations.enterpriseId, row.enterpriseId),
        gt(filingConfirmations.id, row.id),
      ),
    )
    .limit(1);
  if (newer) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.superseded);
  return row;
}

type Confirmation = Awaited<ReturnType<typeof confirmationOf>>;

async function viewOf(tx: Tx, row: Confirmation): Promise<SbqrView> {
  const [head] = await tx
    .select({
      qymc: enterprises.qymc,
      qysh: enterprises.qysh,
      filingMonth: filingPlans.filingMonth,
      agencyName: organisations.name,
    })
    .from(filingPlans)
    .innerJoin(enterprises, eq(enterprises.id, row.enterpriseId))
    .innerJoin(organisations, eq(organisations.id, filingPlans.agencyId))
    .where(and(eq(filingPlans.agencyId, row.agencyId), eq(filingPlans.id, row.planId)));
  if (!head) throw new AppError(CODE.NOT_FOUND, SBQR_MSG.invalid);
  // In the roster's order of tax types (增值税 first), then by period.
  const order = (t: string) => FILING_TAX_TYPES.indexOf(t as (typeof FILING_TAX_TYPES)[number]);
  const items = (await itemsOf(tx, row.agencyId, row.planId, [row.enterpriseId])).sort(
    (a, b) => order(a.taxType) - order(b.taxType) || a.skssqq.localeCompare(b.skssqq),
  );
  return {
    ...head,
    items: items.map((i) => ({
      taxType: i.taxType,
      name: FILING_TAX_TYPE_NAMES[i.taxType],
      skssqq: i.skssqq,
      skssqz: i.skssqz,
      srze: fenToYuan(i.srze),
      ybtse: fenToYuan(i.ybtse),
    })),
    total: fenToYuan(items.reduce((s, i) => s + i.ybtse, 0)),
    state: row.state,
    comment: row.comment,
    answeredAt: row.answeredAt?.toISOString() ?? null,
    expiresAt: row.expiresAt.toISOString(),
  };
}

const sbqrGet = serve(sbqrGetCall, async ({ body, tx, deps }) => viewOf(tx, await confirmationOf(tx, deps, body.t)));

/** The client's answer: the first one stands (a second is refused; the agency can send a new link). */
const sbqrAnswer = serve(sbqrAnswerCall, async ({ body, tx, req, deps, afterCommit }) => {
  const row = await confirmationOf(tx, deps, body.t);
  const answeredAt = new Date();
  const comment = body.comment;
  const [done] = await tx
    .update(filingConfirmations)
    .set({ state: body.answer, comment, answeredAt })
    .where(and(eq(filingConfirmations.id, row.id), eq(filingConfirmations.state, 'sent')))
    .returning();
  if (!done) throw new AppError(CODE.CONFLICT, SBQR_MSG.answered);
  await tx
    .update(filingPlanItems)
    .set({ confirmState: body.answer, updatedAt: answeredAt })
    .where(
      and(
        eq(filingPlanItems.agencyId, row.agencyId),
        eq(filingPlanItems.planId, row.planId),
        eq(filingPlanItems.enterpriseId, row.enterpriseId),
        eq(filingPlanItems.confirmState, 'sent'),
      ),
    );
  await audit(
    tx,
    req,
    { agencyId: row.agencyId, userId: null },
    `filing.confirm.${body.answer}`,
    `confirmation:${row.id}`,
    {
      planId: row.planId,
      aeiId: row.enterpriseId,
      comment,
    },
  );
  const view = await viewOf(tx, done);
  const [plan] = await tx
    .select({ userId: filingPlans.userId })
    .from(filingPlans)
    .where(and(eq(filingPlans.agencyId, row.agencyId), eq(filingPlans.id, row.planId)));
  const detail =
    body.answer === 'confirmed'
      ? SBQR_MSG.confirmedNotice(view.qymc, view.filingMonth)
      : SBQR_MSG.disputedNotice(view.qymc, view.filingMonth, comment);
  await notify(tx, deps.push, afterCommit, {
    event: 'reminder',
    agencyId: row.agencyId,
    userIds: [plan?.userId, row.createdBy].filter((u): u is number => typeof u === 'number'),
    content: messageText(MESSAGE_EVENT_TEXT.reminder.label, detail),
    msgStyleSmall: MESSAGE_EVENT_TEXT.reminder.msgStyleSmall,
    targetId: row.planId,
  });
  return view;
});

export const filingConfirmCalls: Served[] = [sendSbqr, sbqrGet, sbqrAnswer];

export const filingConfirmModule: ServerModule = {
  name: 'filing-confirm',
  calls: filingConfirmCalls,
};
