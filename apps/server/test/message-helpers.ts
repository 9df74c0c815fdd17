import { httpBureauClient } from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import { inScope } from '../src/db/client.js';
import { jobs, messages } from '../src/db/schema/index.js';
import { type Notice, notify } from '../src/modules/message/notify.js';
import type { Deps } from '../src/plugins/calls.js';
import { localPushHub, type PushHub, type PushMessage } from '../src/plugins/push.js';
import { outboxSms } from '../src/plugins/sms.js';
import type { TestApp } from './harness.js';

export const OPERATOR = '13600000000';
export const AGENCY = { demo: 1, other: 2 } as const;

/** Deps for calling module functions (the scheduler, notify) from a test, beside the app's own. */
export function testDeps(t: TestApp, push: PushHub = localPushHub()): Deps {
  const bureau = httpBureauClient({ baseUrl: t.config.taxBureauUrl ?? `http://127.0.0.1:${t.config.taxSimPort}` });
  return {
    config: t.config,
    db: t.db,
    sms: outboxSms(t.app.log, { production: false, dailyBudget: 1000, agencyDailyBudget: 100 }),
    push,
    bureau,
    wakeJobs: () => {},
  };
}

/** notify() as a module calls it: in a transaction of the agency, pushes after commit. Returns who got it and the pushes. */
export async function notifyNow(t: TestApp, notice: Notice) {
  const push = localPushHub();
  const pushed: { userId: number; message: PushMessage }[] = [];
  for (const id of notice.userIds) push.subscribe(id, (message) => pushed.push({ userId: id, message }));
  const after: (() => Promise<void>)[] = [];
  const users = await inScope(t.db.app, { agencyId: notice.agencyId, userId: null, kjgcId: null }, (tx) =>
    notify(tx, push, (fn) => void after.push(fn), notice),
  );
  for (const fn of after) await fn();
  return { users, pushed };
}

/** The messages of a user in an agency, newest first, read as the data layer sees them. */
export function messagesOf(t: TestApp, agencyId: number, userId: number) {
  return inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx
      .select()
      .from(messages)
      .where(and(eq(messages.agencyId, agencyId), eq(messages.userId, userId)))
      .orderBy(sql`${messages.createdAt} desc, ${messages.id} desc`),
  );
}

/** Deletes every message of an agency (a clean slate for one test). */
export function clearMessages(t: TestApp, agencyId: number) {
  return inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx.delete(messages).where(eq(messages.agencyId, agencyId)),
  );
}

/** Waits until every job of the queue in the agency has finished; returns them. */
export async function jobsDone(t: TestApp, agencyId: number, queue: string, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
      tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.agencyId, agencyId), eq(jobs.queue, queue))),
    );
    if (rows.length > 0 && rows.every((r) => r.state === 'done' || r.state === 'failed')) return rows;
    if (Date.now() > until) throw new Error(`jobs of ${queue} not done: ${rows.map((r) => r.state).join(',')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
