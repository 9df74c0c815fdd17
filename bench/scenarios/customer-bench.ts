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
    kjgcId: null,
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

type Filter = Parameters<typeof customerWhere>[2];

/**
 * The list's database work: the code the call runs (the total, page ids, then the rows). With a filter
 * (another sort, a keyword, a status) the page need not be full nor the total the whole book.
 */
export function listSql(env: BenchEnv, pageNo: number, filter?: Filter, cursor?: string) {
  const session = adminCtx(env);
  const agencyId = env.data.agencyId;
  return inScope(env.db.app, { agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    const where = customerWhere(session, agencyId, filter ?? {});
    const page = await customerPage(tx, agencyId, where, { ...filter, pageNo, pageSize: 20, cursor });
    if (!filter && (page.total < BENCH_ENTERPRISES || page.list.length !== 20))
      throw new Error(`page ${pageNo}: ${page.list.length} of ${page.total}`);
    if (filter && page.list.length === 0) throw new Error(`page ${pageNo} of ${JSON.stringify(filter)} is empty`);
    return page;
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
  expectThat(
    direct.list.map((e) => e.id).join() === r.data.list.map((e) => e.id).join(),
    'SQL and API give the same page',
  );
  // The other plans of the list, in SQL: a step by cursor, the name sort, a keyword, a status filter.
  const byName = { sortField: 'qymc', sortOrder: 'ascend' } as const;
  const next = direct.cursor.next ?? undefined;
  const nameNext = (await listSql(env, pageNo, byName)).cursor.next ?? undefined;
  // Three characters from the middle of a client's name: a keyword the trigram index serves.
  const keyword = (direct.list[0]?.qymc ?? '').slice(2, 5);
  const also = [
    { label: `SQL page ${pageNo + 1} by cursor`, op: () => listSql(env, pageNo + 1, undefined, next) },
    { label: `SQL by name, page ${pageNo}`, op: () => listSql(env, pageNo, byName) },
    { label: `SQL by name, page ${pageNo + 1} by cursor`, op: () => listSql(env, pageNo + 1, byName, nameNext) },
    ...(pageNo === 1
      ? [
          { label: `SQL keyword ${keyword}`, op: () => listSql(env, 1, { keyword }) },
          { label: 'SQL 服务状态 filter', op: () => listSql(env, 1, { serviceStatus: '1' }) },
        ]
      : []),
  ];
  return {
    api: { method: 'POST', path: `/api/${customerListCall.path}`, headers: { cookie }, body },
    sql: () => listSql(env, pageNo),
    also,
  };
}
