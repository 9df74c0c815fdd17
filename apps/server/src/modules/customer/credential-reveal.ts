import {
  CODE,
  REVEAL_MSG,
  REVEAL_PER_HOUR,
  revealCodeCall,
  revealCredentialCall,
  revealLogCall,
  SMS_RESEND_SECONDS,
} from '@dzy/shared';
import { and, desc, eq } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve, serveStaged } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { verifyPassword } from '../../plugins/password.js';
import { hit } from '../../plugins/rate-limit.js';
import { consumeCode, issueCode } from '../auth/sms-code.js';
import { agencyOf, requireEnterprise } from './customer.repo.js';
import { plainCredentials } from './customer.service.js';

const REVEAL_ACTION = 'customer.credential_reveal';
const SMS_PURPOSE = 'reveal';
const HOUR = 3600;

/**
 * Revealing a client's credentials (issue 12): the permission alone is not enough. The caller proves
 * again who they are (their sign-in password, or a code sent to their own phone), says why, and may
 * try at most REVEAL_PER_HOUR times an hour; the reveal and its reason go to the audit log before the
 * secret leaves. Staged: the password's scrypt runs between two short transactions.
 */
export const credentialRevealCalls: Served[] = [
  serveStaged(revealCredentialCall, async ({ body, session, inTx, req, deps }) => {
    // Every attempt counts, wrong passwords and codes included: that also bounds guessing.
    const wait = await hit(
      deps.db,
      `reveal:user:${session.userId}`,
      REVEAL_PER_HOUR * deps.config.rateLimitFactor,
      HOUR,
    );
    if (wait > 0) throw new AppError(CODE.TOO_MANY, REVEAL_MSG.tooMany(wait), { retryAfter: wait });
    const target = `enterprise:${body.id}`;
    const refused = (msg: string, how: string) =>
      inTx(async (tx) => {
        await audit(tx, req, session, `${REVEAL_ACTION}_refused`, target, { how, reason: body.reason });
        return new Answer(CODE.BAD_REQUEST, msg);
      });
    if (body.password) {
      const stored = await inTx(async (tx) => {
        await requireEnterprise(tx, session, body.id);
        const [u] = await tx.select({ hash: users.passwordHash }).from(users).where(eq(users.id, session.userId));
        return u?.hash ?? null;
      });
      if (stored === null) return refused(REVEAL_MSG.noPassword, 'password');
      if (!(await verifyPassword(body.password, stored))) return refused(REVEAL_MSG.wrongPassword, 'password');
    }
    return inTx(async (tx) => {
      const e = await requireEnterprise(tx, session, body.id);
      if (!body.password) {
        const wrong = await consumeCode(tx, deps.config.secretKey, session.phone, SMS_PURPOSE, body.smsCode ?? '');
        if (wrong) {
          await audit(tx, req, session, `${REVEAL_ACTION}_refused`, target, { how: 'sms', reason: body.reason });
          return wrong;
        }
      }
      await audit(tx, req, session, REVEAL_ACTION, target, {
        qymc: e.qymc,
        reason: body.reason,
        how: body.password ? 'password' : 'sms',
      });
      return plainCredentials(deps.config.secretKey, e);
    });
  }),

  // The code goes to the caller's own phone, never to a number the page names.
  serve(revealCodeCall, async ({ session, tx, deps }) => {
    await issueCode(tx, deps.sms, deps.config.secretKey, session.phone, SMS_PURPOSE);
    return { resendAfter: SMS_RESEND_SECONDS };
  }),

  // The last 20 reveals of this client's credentials: who, when and why (from the audit log).
  serve(revealLogCall, async ({ body, session, tx }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.id);
    const rows = await tx
      .select({ at: auditLog.at, detail: auditLog.detail, name: users.hymc, phone: users.phone })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.userId))
      .where(
        and(
          eq(auditLog.agencyId, agencyId),
          eq(auditLog.action, REVEAL_ACTION),
          eq(auditLog.target, `enterprise:${e.id}`),
        ),
      )
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(20);
    return rows.map((r) => ({
      userName: r.name || r.phone || '—',
      at: r.at.toISOString(),
      reason: typeof r.detail.reason === 'string' ? r.detail.reason : '',
    }));
  }),
];
