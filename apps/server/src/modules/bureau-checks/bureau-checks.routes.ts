import {
  BUREAU_MSG,
  BureauError,
  CHECK_PASSWORD_MSG,
  CODE,
  checkPasswordCall,
  type EtaxLoginResult,
  provinceOf,
  stripBrackets,
  whitelistByQyshCall,
} from '@dzy/shared';
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { auditLog, enterprises, whitelistOrders } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { provinceWhitelisted, WHITELIST_OFF_MSG, whitelistsOf } from '../../lib/whitelist.js';
import { type ServerModule, serve, serveStaged } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { agencyOf, requireEnterprise, visible } from '../customer/customer.repo.js';

/** Tries of the password check a person gets an hour. */
export const CHECKS_PER_HOUR = 20;

/** The check's answer for a bureau login outcome (tax-bureau.md §4 "Tax login result"). */
function outcome(r: EtaxLoginResult): { pass: boolean; msg: string } {
  if (r.status === 1) return { pass: true, msg: CHECK_PASSWORD_MSG.pass };
  // Asked for an SMS code: the account and password were right.
  if (r.status === 2) return { pass: true, msg: CHECK_PASSWORD_MSG.passSms };
  if (r.mismatch || r.msg.includes('用户名与密码不匹配')) return { pass: false, msg: BUREAU_MSG.mismatch };
  return { pass: false, msg: stripBrackets(r.msg) || BUREAU_MSG.loginIdentityFailed };
}

export const bureauChecksModule: ServerModule = {
  name: 'bureau-checks',
  calls: [
    // Staged: the bureau answers outside any transaction (the embedded database has one connection).
    serveStaged(checkPasswordCall, async ({ body, session, inTx, deps, req }) => {
      const ent = await inTx(async (tx) => {
        const e = await requireEnterprise(tx, session, body.aeiId);
        if (!e.qysh) throw new AppError(CODE.BAD_REQUEST, CHECK_PASSWORD_MSG.noTaxNumber);
        // The check is switched on per province (the enterprise's sssf) by the kxdlmmjy white list.
        if (!(await provinceWhitelisted(tx, e.sssf, 'kxdlmmjy'))) {
          throw new AppError(CODE.NO_PERMISSION, WHITELIST_OFF_MSG.kxdlmmjy);
        }
        // Each try is a login at the bureau, which locks accounts after repeated failures: a person gets
        // CHECKS_PER_HOUR tries an hour (counted from the audit lines, read through their agency's index).
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(auditLog)
          .where(
            and(
              eq(auditLog.agencyId, agencyOf(session)),
              gt(auditLog.at, sql`now() - interval '1 hour'`),
              eq(auditLog.userId, session.userId),
              eq(auditLog.action, 'customer.password_check'),
            ),
          );
        if (n >= CHECKS_PER_HOUR) throw new AppError(CODE.TOO_MANY, CHECK_PASSWORD_MSG.tooMany);
        return e;
      });
      let result: { pass: boolean; msg: string };
      try {
        result = outcome(
          await deps.bureau.etaxLogin({
            qysh: ent.qysh,
            account: body.kxzh,
            password: body.kxmm,
            sfbm: body.dlsf,
            loginType: ent.loginType === '1' ? '1' : '0',
            ...(body.dlsf === '97' ? { agentQysh: body.dljgsh } : {}),
          }),
        );
      } catch (err) {
        if (!(err instanceof BureauError)) throw err;
        if (err.kind === 'failed') result = { pass: false, msg: stripBrackets(err.message) };
        else if (err.kind === 'busy') throw new AppError(CODE.TOO_MANY, BUREAU_MSG.busy);
        else throw new AppError(CODE.ERROR, err.message || BUREAU_MSG.unreachable);
      }
      // Audited without the password; the session a successful login made is not kept.
      await inTx((tx) =>
        audit(tx, req, session, 'customer.password_check', `enterprise:${ent.id}`, {
          dlsf: body.dlsf,
          kxzh: body.kxzh,
          pass: result.pass,
        }),
      );
      return result;
    }),

    // The form asks before offering 密码校验: lists naming the agency (or its province) and the client's province.
    serve(whitelistByQyshCall, async ({ body, session, tx }) => {
      const [e] = await tx
        .select({ id: enterprises.id, qysh: enterprises.qysh, sssf: enterprises.sssf })
        .from(enterprises)
        .where(and(visible(session, agencyOf(session)), eq(enterprises.qysh, body.qysh)))
        .limit(1);
      if (!e) throw new AppError(CODE.NOT_FOUND, '未找到该税号的客户');
      const province = provinceOf(e.sssf);
      const lists = await whitelistsOf(tx, session.agencyId);
      // kxdlmmjy is decided by the client's province alone, not by the agency's.
      lists.delete('kxdlmmjy');
      if (province) {
        const rows = await tx
          .select({ type: whitelistOrders.type })
          .from(whitelistOrders)
          .where(inArray(whitelistOrders.busiVal, [province]));
        for (const r of rows) lists.add(r.type);
      }
      return {
        aeiId: e.id,
        qysh: e.qysh,
        province,
        lists: [...lists].sort(),
        kxdlmmjy: await provinceWhitelisted(tx, e.sssf, 'kxdlmmjy'),
      };
    }),
  ],
};
