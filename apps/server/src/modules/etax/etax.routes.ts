import {
  BUREAU_MSG,
  CODE,
  ETAX_GRANT_TTL_S,
  ETAX_MSG,
  ETAX_RESULT_TTL_S,
  etaxGrantCall,
  helperRedeemCall,
  helperResultCall,
} from '@dzy/shared';
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import { agencyScope, setScope } from '../../db/client.js';
import { enterprises, etaxLoginGrants } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { requireService365 } from '../account-status/service365.js';
import { contractBlocks } from '../contract/contract-status.js';
import { agencyOf, requireEnterprise } from '../customer/customer.repo.js';
import { grantAgency, hashGrant, loginParams, newGrant } from './etax.service.js';

/** The verification status saved after a name/password mismatch (tax-bureau.md §4, settingSaveEntSB). */
const VERIFY_MISMATCH = '4';

export const etaxModule: ServerModule = {
  name: 'etax',
  calls: [
    serve(etaxGrantCall, async ({ body, session, tx, req, deps }) => {
      const agencyId = agencyOf(session);
      // The helper logs in only for an agency with 365基础服务 on and unexpired (docs/decisions/account.md).
      await requireService365(tx, agencyId);
      const e = await requireEnterprise(tx, session, body.aeiId);
      // Refuse now, with the check's words, rather than after the helper found nothing to log in with.
      loginParams(deps.config.secretKey, e);
      // The client book's contract reminder at level 2 (提醒并限制操作) refuses the login with its warning.
      const blocked = (await contractBlocks(tx, agencyId, [e.id], 'kh', chinaDate())).get(e.id);
      if (blocked) throw new AppError(CODE.CONFLICT, blocked);
      const { grant, tokenHash } = newGrant(agencyId);
      await tx.insert(etaxLoginGrants).values({
        tokenHash,
        agencyId,
        userId: session.userId,
        enterpriseId: e.id,
        expiresAt: sql`now() + make_interval(secs => ${ETAX_GRANT_TTL_S})`,
      });
      await audit(tx, req, session, 'etax.grant', `enterprise:${e.id}`, { qymc: e.qymc });
      return { grant, expiresIn: ETAX_GRANT_TTL_S, qymc: e.qymc, qysh: e.qysh, isVerifySet: e.isVerifySet };
    }),

    // Public: the grant is the whole authority, once, within its 60 s.
    serve(helperRedeemCall, async ({ body, tx, req, deps }) => {
      const agencyId = grantAgency(body.grant);
      // The grant's agency itself: the grant was made only for a client its maker could see.
      await setScope(tx, agencyScope(agencyId));
      // A grant made just before the service was switched off is not honoured either.
      await requireService365(tx, agencyId);
      const tokenHash = hashGrant(body.grant);
      const [row] = await tx
        .update(etaxLoginGrants)
        .set({ redeemedAt: sql`now()` })
        .where(
          and(
            eq(etaxLoginGrants.tokenHash, tokenHash),
            isNull(etaxLoginGrants.redeemedAt),
            gt(etaxLoginGrants.expiresAt, sql`now()`),
          ),
        )
        .returning();
      if (!row) {
        const [used] = await tx
          .select({ at: etaxLoginGrants.redeemedAt })
          .from(etaxLoginGrants)
          .where(and(eq(etaxLoginGrants.tokenHash, tokenHash), isNotNull(etaxLoginGrants.redeemedAt)));
        throw new AppError(used ? CODE.CONFLICT : CODE.NOT_FOUND, used ? ETAX_MSG.grantUsed : ETAX_MSG.grantInvalid);
      }
      const [e] = await tx
        .select()
        .from(enterprises)
        .where(and(eq(enterprises.id, row.enterpriseId), isNull(enterprises.deletedAt)));
      if (!e) throw new AppError(CODE.NOT_FOUND, ETAX_MSG.grantInvalid);
      const who = { agencyId, userId: row.userId };
      await audit(tx, req, who, 'etax.redeem', `enterprise:${e.id}`, { qymc: e.qymc });
      return loginParams(deps.config.secretKey, e);
    }),

    // Public: only the holder of a redeemed grant reports, once; the browser is never trusted with this.
    serve(helperResultCall, async ({ body, tx, req }) => {
      const agencyId = grantAgency(body.grant);
      // The grant's agency itself: the grant was made only for a client its maker could see.
      await setScope(tx, agencyScope(agencyId));
      const [row] = await tx
        .update(etaxLoginGrants)
        .set({ reportedAt: sql`now()`, status: body.status, msg: body.msg })
        .where(
          and(
            eq(etaxLoginGrants.tokenHash, hashGrant(body.grant)),
            isNotNull(etaxLoginGrants.redeemedAt),
            isNull(etaxLoginGrants.reportedAt),
            gt(etaxLoginGrants.redeemedAt, sql`now() - make_interval(secs => ${ETAX_RESULT_TTL_S})`),
          ),
        )
        .returning();
      if (!row) throw new AppError(CODE.NOT_FOUND, ETAX_MSG.grantInvalid);
      const mismatch = body.status === 0 && body.msg.includes('用户名与密码不匹配');
      // A mismatch saves '4' (settingSaveEntSB); a later success clears that flag, and only that one.
      const [e] = mismatch
        ? await tx
            .update(enterprises)
            .set({ isVerifySet: VERIFY_MISMATCH, updatedAt: sql`now()` })
            .where(eq(enterprises.id, row.enterpriseId))
            .returning({ isVerifySet: enterprises.isVerifySet, qymc: enterprises.qymc })
        : body.status === 1
          ? await tx
              .update(enterprises)
              .set({
                isVerifySet: sql`case when ${enterprises.isVerifySet} = ${VERIFY_MISMATCH} then '' else ${enterprises.isVerifySet} end`,
              })
              .where(eq(enterprises.id, row.enterpriseId))
              .returning({ isVerifySet: enterprises.isVerifySet, qymc: enterprises.qymc })
          : await tx
              .select({ isVerifySet: enterprises.isVerifySet, qymc: enterprises.qymc })
              .from(enterprises)
              .where(eq(enterprises.id, row.enterpriseId));
      await audit(tx, req, { agencyId, userId: row.userId }, 'etax.login_result', `enterprise:${row.enterpriseId}`, {
        status: body.status,
        msg: body.msg || (body.status === 1 ? '登录成功' : BUREAU_MSG.loginIdentityFailed),
        qymc: e?.qymc ?? '',
      });
      return { isVerifySet: e?.isVerifySet ?? '' };
    }),
  ],
};
