import { CODE, type MessageListItem, selectMsgListCall } from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { enterprises, jobs, messages } from '../src/db/schema/index.js';
import {
  CLEANUP_QUEUE,
  EXPIRY_QUEUE,
  EXPIRY_SCAN_QUEUE,
  scheduleDailyJobs,
} from '../src/modules/message/message.jobs.js';
import { chinaDate } from '../src/plugins/jobs.js';
import { startTestApp, type TestApp } from './harness.js';
import { AGENCY, jobsDone, messagesOf, testDeps } from './message-helpers.js';
import { ID, ZHANG } from './staff-helpers.js';

let t: TestApp;
let zhang: string;

beforeAll(async () => {
  // No client's membership has an expiry date but those a test sets.
  t = await startTestApp({ prepare: async (owner) => void (await owner.update(enterprises).set({ hydqsj: null })) });
  zhang = await t.login(ZHANG);
});
afterAll(() => t.close());

const DAY = 86_400_000;
const inDemo = <T>(fn: Parameters<typeof inScope<T>>[2]) =>
  inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, fn);

async function clearJobs() {
  for (const agencyId of [AGENCY.demo, AGENCY.other]) {
    await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
      tx.delete(jobs).where(eq(jobs.agencyId, agencyId)),
    );
  }
}

describe('the daily cleanup', () => {
  it('deletes messages older than six months and keeps newer ones, in every agency', async () => {
    const now = Date.now();
    const ages = { old: 200, edge: 175, recent: 10 };
    for (const agencyId of [AGENCY.demo, AGENCY.other]) {
      const userId = agencyId === AGENCY.demo ? ID.zhang : ID.otherAdmin;
      await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
        tx.insert(messages).values(
          Object.entries(ages).map(([name, days]) => ({
            agencyId,
            userId,
            msgStyleBig: 1,
            msgStyleSmall: 'customer',
            content: `【测试】${name}`,
            createdAt: new Date(now - days * DAY),
          })),
        ),
      );
    }
    await clearJobs();
    await scheduleDailyJobs(testDeps(t), '2030-01-01');
    const done = await jobsDone(t, AGENCY.demo, CLEANUP_QUEUE);
    expect(done.map((j) => j.state)).toEqual(['done']);
    expect(done[0]?.result).toEqual({ deleted: 1 });
    await jobsDone(t, AGENCY.other, CLEANUP_QUEUE);
    expect((await messagesOf(t, AGENCY.demo, ID.zhang)).map((m) => m.content)).toEqual([
      '【测试】recent',
      '【测试】edge',
    ]);
    expect((await messagesOf(t, AGENCY.other, ID.otherAdmin)).map((m) => m.content)).toEqual([
      '【测试】recent',
      '【测试】edge',
    ]);
  });

  it('creates the day’s jobs once however often (or by how many processes) it is scheduled', async () => {
    await clearJobs();
    await Promise.all([scheduleDailyJobs(testDeps(t), '2030-01-02'), scheduleDailyJobs(testDeps(t), '2030-01-02')]);
    await scheduleDailyJobs(testDeps(t), '2030-01-02');
    const rows = await inDemo((tx) =>
      tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.agencyId, AGENCY.demo), inArray(jobs.queue, [CLEANUP_QUEUE, EXPIRY_SCAN_QUEUE]))),
    );
    expect(rows.map((r) => r.key).sort()).toEqual(['cleanup:1:2030-01-02', 'expiry-scan:1:2030-01-02']);
  });

  it('dates are China’s', () => {
    expect(chinaDate(new Date('2030-01-01T16:30:00Z'))).toBe('2030-01-02');
    expect(chinaDate(new Date('2030-01-01T15:30:00Z'))).toBe('2030-01-01');
  });
});

describe('服务已到期: reminders to the responsible staff', () => {
  it('one reminder per client whose membership expired, to the staff it is allocated to, once per expiry', async () => {
    await inDemo((tx) => tx.delete(messages).where(eq(messages.agencyId, AGENCY.demo)));
    const mine = await inDemo((tx) =>
      tx
        .select({ id: enterprises.id, qymc: enterprises.qymc })
        .from(enterprises)
        .where(and(eq(enterprises.agencyId, AGENCY.demo), eq(enterprises.allocateUser, ID.zhang)))
        .orderBy(enterprises.id)
        .limit(3),
    );
    const [expired, future, deleted] = mine;
    if (!expired || !future || !deleted) throw new Error('demo data lacks enterprises of 张伟');
    await inDemo(async (tx) => {
      await tx.update(enterprises).set({ hydqsj: '2030-02-28' }).where(eq(enterprises.id, expired.id));
      await tx.update(enterprises).set({ hydqsj: '2030-03-10' }).where(eq(enterprises.id, future.id));
      await tx
        .update(enterprises)
        .set({ hydqsj: '2030-02-01', deletedAt: new Date() })
        .where(eq(enterprises.id, deleted.id));
    });

    await clearJobs();
    await scheduleDailyJobs(testDeps(t), '2030-03-01');
    await jobsDone(t, AGENCY.demo, EXPIRY_SCAN_QUEUE);
    await jobsDone(t, AGENCY.demo, EXPIRY_QUEUE);
    let rows = await messagesOf(t, AGENCY.demo, ID.zhang);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      msgStyleBig: 2,
      msgStyleSmall: 'customer',
      targetId: expired.id,
      content: `【服务已到期】客户「${expired.qymc}」的会员服务已于 2030-02-28 到期，请及时联系客户续费。`,
    });
    // Nobody else was told.
    expect(await messagesOf(t, AGENCY.demo, ID.li)).toHaveLength(0);
    expect(await messagesOf(t, AGENCY.demo, ID.admin)).toHaveLength(0);
    // 张伟 sees it among his system reminders.
    const list = await t.call<{ list: MessageListItem[] }>(selectMsgListCall.path, { msg_style_big: 2 }, zhang);
    expect(list.code).toBe(CODE.OK);
    expect(list.data.list[0]?.content).toContain('服务已到期');

    // The next days do not repeat it ...
    await scheduleDailyJobs(testDeps(t), '2030-03-02');
    await jobsDone(t, AGENCY.demo, EXPIRY_SCAN_QUEUE);
    await jobsDone(t, AGENCY.demo, EXPIRY_QUEUE);
    expect(await messagesOf(t, AGENCY.demo, ID.zhang)).toHaveLength(1);

    // ... but once renewed and expired again, it is a new expiry; the other client's has come too.
    await inDemo((tx) => tx.update(enterprises).set({ hydqsj: '2031-02-28' }).where(eq(enterprises.id, expired.id)));
    await scheduleDailyJobs(testDeps(t), '2031-03-01');
    await jobsDone(t, AGENCY.demo, EXPIRY_SCAN_QUEUE);
    await jobsDone(t, AGENCY.demo, EXPIRY_QUEUE);
    rows = await messagesOf(t, AGENCY.demo, ID.zhang);
    expect(rows.map((r) => r.targetId).sort()).toEqual([expired.id, expired.id, future.id].sort());
    expect(rows.filter((r) => r.content.includes('2031-02-28'))).toHaveLength(1);
  });
});
