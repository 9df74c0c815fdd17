import { CODE } from '@dzy/shared';
import { eq, sql } from 'drizzle-orm';
import { type Db, inScope } from '../../apps/server/src/db/client.js';
import { users } from '../../apps/server/src/db/schema/index.js';
import type { Served } from '../../apps/server/src/plugins/calls.js';
import { buildCtx, type SessionCtx, setKjgcScope } from '../../apps/server/src/plugins/session.js';
import { type BenchEnv, expectThat, type HttpSpec } from '../scenario.js';

/**
 * Shared by the 100,000-row list scenarios (50–55): the SQL side runs the call's own handler (the `serve`d
 * function of the module, found by its path) in a transaction scoped as the call's would be, so the two
 * sides run the same code and differ only by HTTP, the session lookup and validation.
 */

export const ROWS = 100_000;

type Page = { list: { id: number }[]; total: number; cursor: { next: string | null; prev: string | null } };

/** The caller as the server builds it at each call (membership, permissions, the agency it acts in). */
export async function sessionOf(env: BenchEnv, userId: number): Promise<SessionCtx> {
  return env.db.app.transaction(async (tx) => {
    // As sessionIn does before buildCtx: act as the user, no agency yet.
    await tx.execute(sql`select set_config('app.user_id', ${String(userId)}, true)`);
    const [u] = await tx.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!u) throw new Error(`no user ${userId}`);
    return buildCtx(tx, { id: 0, orgId: null } as never, u);
  });
}

/** The handler a module serves for `path`. */
export function handlerOf(calls: readonly Served[], path: string): Served {
  const s = calls.find((c) => c.def.path === path);
  if (!s) throw new Error(`no handler for ${path}`);
  return s;
}

/** The call's handler run directly on the app role, in the caller's scope (and the factory's, for a factory). */
export function runHandler(env: BenchEnv, served: Served, session: SessionCtx, body: unknown) {
  const parsed = served.def.body.parse(body);
  return inScope(env.db.app, { agencyId: session.agencyId, userId: session.userId, kjgcId: null }, async (tx) => {
    await setKjgcScope(tx, session.orgType === 'kjgc' ? session.orgId : null);
    return (await served.run({ body: parsed, tx, session } as never)) as Page;
  });
}

/** One list page both ways: checks the API's answer equals the handler's and returns the reply. */
export async function checkedPage(
  env: BenchEnv,
  served: Served,
  session: SessionCtx,
  cookie: string,
  body: Record<string, unknown>,
  what: string,
  minTotal: number,
): Promise<Page> {
  const r = await env.call<Page>(served.def.path, body, cookie);
  expectThat(r.code === CODE.OK, `${what}: answered ${r.code} ${r.msg}`);
  const direct = await runHandler(env, served, session, body);
  expectThat(r.data.total === direct.total, `${what}: API total ${r.data.total}, SQL ${direct.total}`);
  expectThat(r.data.total >= minTotal, `${what}: total ${r.data.total} < ${minTotal}`);
  expectThat(r.data.list.length > 0, `${what}: empty page`);
  expectThat(
    r.data.list.map((x) => x.id).join() === direct.list.map((x) => x.id).join(),
    `${what}: API and SQL give the same page`,
  );
  return r.data;
}

/** The SQL side of a page: throws on an empty or short answer, so the run counts it as an error. */
export function pageSql(env: BenchEnv, served: Served, session: SessionCtx, body: Record<string, unknown>, min = 1) {
  return async () => {
    const page = await runHandler(env, served, session, body);
    if (page.list.length < min) throw new Error(`${served.def.path}: ${page.list.length} rows of ${page.total}`);
    return page;
  };
}

export const post = (path: string, cookie: string, body: unknown): HttpSpec => ({
  method: 'POST',
  path: `/api/${path}`,
  headers: { cookie },
  body,
});

/** A platform operator of the bench (signs in with BENCH_PASSWORD); created once, by whichever seed needs it. */
export const OPERATOR_PHONE = '15660000000';
export async function ensureOperator(owner: Db, passwordHash: string): Promise<number> {
  const [have] = await owner.select({ id: users.id }).from(users).where(eq(users.phone, OPERATOR_PHONE)).limit(1);
  if (have) return have.id;
  const [row] = await owner
    .insert(users)
    .values({ phone: OPERATOR_PHONE, hymc: '基准运营', zw: '运营专员', passwordHash, isOperator: true })
    .returning({ id: users.id });
  if (!row) throw new Error('could not create the bench operator');
  return row.id;
}

export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
