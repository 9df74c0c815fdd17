import { createHash, randomBytes } from 'node:crypto';
import { CODE, ETAX_MSG, type EtaxLoginParams } from '@dzy/shared';
import { decrypt } from '../../lib/crypto.js';
import { AppError } from '../../plugins/errors.js';
import type { EnterpriseRow } from '../customer/customer.repo.js';

/**
 * A grant is `g1.<agencyId>.<32 random bytes, base64url>`. The agency part only tells the server
 * which tenant to look in (redeeming is a public call, without a session); the random part is the
 * secret, stored as its SHA-256.
 */
const GRANT_RE = /^g1\.(\d{1,10})\.([A-Za-z0-9_-]{43})$/;

export function newGrant(agencyId: number): { grant: string; tokenHash: string } {
  const grant = `g1.${agencyId}.${randomBytes(32).toString('base64url')}`;
  return { grant, tokenHash: hashGrant(grant) };
}

export const hashGrant = (grant: string) => createHash('sha256').update(grant).digest('hex');

/** The tenant a grant names, or a refusal that says nothing more than "invalid". */
export function grantAgency(grant: string): number {
  const m = GRANT_RE.exec(grant);
  const id = m ? Number(m[1]) : 0;
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError(CODE.NOT_FOUND, ETAX_MSG.grantInvalid);
  return id;
}

/**
 * What the helper logs in with (tax-bureau.md §3 enterprise login parameters): the agent account for
 * sfbm '97', otherwise the e-tax account; login type '0' unless the enterprise says '1'. Refuses before
 * a grant is made when the account is not filled in (the check's message 网上办税账号未补全).
 */
export function loginParams(key: Buffer, e: EnterpriseRow): EtaxLoginParams {
  const sfbm = (['1', '2', '3', '6', '97'].includes(e.xdzswjSfbm) ? e.xdzswjSfbm : '1') as EtaxLoginParams['sfbm'];
  const agent = sfbm === '97';
  const account = agent ? e.agentLoginAccount : e.xdzswjDlzh;
  const password = decrypt(key, agent ? e.agentLoginPasswordEnc : e.xdzswjPassEnc);
  if (!account || !password || (agent && !e.agentLoginQysh)) {
    throw new AppError(CODE.BAD_REQUEST, agent ? ETAX_MSG.noAgentAccount : ETAX_MSG.noAccount);
  }
  if (!e.qysh) throw new AppError(CODE.BAD_REQUEST, '请先补充企业税号');
  return {
    aeiId: e.id,
    qymc: e.qymc,
    qysh: e.qysh,
    account,
    password,
    sfbm,
    loginType: e.loginType === '1' ? '1' : '0',
    agentQysh: agent ? e.agentLoginQysh : '',
  };
}
