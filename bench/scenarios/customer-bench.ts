import { CODE, customerListCall } from '@dzy/shared';
import { inScope } from '../../apps/server/src/db/client.js';
import { customerPage, customerWhere } from '../../apps/server/src/modules/customer/customer.repo.js';
import type { SessionCtx } from '../../apps/server/src/plugins/session.js';
import type { Runs } from '../scenario.js';
import { type BenchEnv, expectThat } from '../scenario.js';
import { BENCH_ENTERPRISES } from '../setup.js';

/** The bench administrator as the data-scope helper sees them (whole agency). */
export function adminCtx(env: BenchEnv): SessionCtx {
  return {
    sessionId: 0,
    userId: env.data.adminId,
    phone: env.data.adminPhone,
    hymc: '',
    zw: '',
    headimg: '',
    hasPassword: true,
    orgId: env.data.agencyId,
    orgType: 'dls',
    orgName: '',
    agencyId: env.data.agencyId,
    kjgcDlsId: null,
    isAdmin: true,
    role: 1,
    membershipId: null,
    departmentId: null,
    isOperator: false,
    perms: ['*:*:*'],
  };
}

/** The list's database work: the code the call runs (the total, page ids, then the rows). */
export function listSql(env: BenchEnv, pageNo: number, pageSize = 20) {
  const session = adminCtx(env);
  const agencyId = env.data.agencyId;
  return inScope(env.db.app, { agencyId, userId: session.userId }, async (tx) => {
    const where = customerWhere(session, agencyId, {});
    const { list, total } = await customerPage(tx, agencyId, where, { pageNo, pageSize });
    if (total < BENCH_ENTERPRISES || list.length !== pageSize)
      throw new Error(`page ${pageNo}: ${list.length} of ${total}`);
    return list;
  });
}

/** The list call at one page, checked against the SQL side first. */
export async function listRuns(env: BenchEnv, pageNo: number): Promise<Runs> {
  const cookie = await env.login(env.data.adminPhone);
  const body = { pageNo, pageSize: 20 };
  const r = await env.call<{ list: { id: number }[]; total: number }>(customerListCall.path, body, cookie);
  expectThat(r.code === CODE.OK, `list answered ${r.code} ${r.msg}`);
  expectThat(
    r.data.total >= BENCH_ENTERPRISES && r.data.list.length === 20,
    `list gave ${r.data.list.length} of ${r.data.total}`,
  );
  const direct = await listSql(env, pageNo);
  expectThat(direct.map((e) => e.id).join() === r.data.list.map((e) => e.id).join(), 'SQL and API give the same page');
  return {
    api: { method: 'POST', path: `/api/${customerListCall.path}`, headers: { cookie }, body },
    sql: () => listSql(env, pageNo),
  };
}
