import {
  alertMessageInfoCall,
  bellText,
  CODE,
  EXPIRED_MARK,
  getMsgSettingsCall,
  helpPanelHides,
  KJGC_SETTING_ONLY_MSG,
  type MessageListItem,
  type MsgSettings,
  markNewsKnownCall,
  messageLink,
  type NewsItem,
  NO_MESSAGE_TEXT,
  selectMsgListCall,
  selectNewsCall,
  sendSystemMsgCall,
  updateMsgSettingsCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { auditLog, messages } from '../src/db/schema/index.js';
import { MESSAGE_EVENTS, type MessageEvent, notifyEvent } from '../src/modules/message/notify.js';
import { localPushHub } from '../src/plugins/push.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';
import { AGENCY, clearMessages, messagesOf, notifyNow, OPERATOR } from './message-helpers.js';
import { ADMIN, FACTORY, ID, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let zhang: string;
let li: string;
let otherAdmin: string;
let factory: string;
let operator: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
  li = await t.login(LI);
  otherAdmin = await t.login(OTHER_ADMIN);
  factory = await t.login(FACTORY);
  operator = await t.login(OPERATOR);
});
afterAll(() => t.close());
beforeEach(async () => {
  await clearMessages(t, AGENCY.demo);
  await clearMessages(t, AGENCY.other);
});

const setSettings = (cookie: string, body: Partial<MsgSettings>) =>
  t.call<MsgSettings>(updateMsgSettingsCall.path, body, cookie);

const SETTING_OF: Record<Exclude<MessageEvent, 'reminder'>, keyof MsgSettings> = {
  fp: 'msg_fp',
  xjht: 'msg_xjht',
  xjgd: 'msg_xjgd',
  sftx: 'msg_sftx',
};

describe('notify(): each event and each setting', () => {
  for (const [event, setting] of Object.entries(SETTING_OF) as [
    Exclude<MessageEvent, 'reminder'>,
    keyof MsgSettings,
  ][]) {
    it(`${event} creates a message while ${setting} is on, none while it is off`, async () => {
      await setSettings(zhang, { msg_fp: 1, msg_xjht: 1, msg_xjgd: 1, msg_sftx: 1 });
      const on = await notifyNow(t, {
        event,
        agencyId: AGENCY.demo,
        userIds: [ID.zhang, ID.li],
        content: `【测试】${event} 开`,
        msgStyleSmall: 'customer',
        targetId: 7,
      });
      expect(on.users.sort()).toEqual([ID.li, ID.zhang].sort());
      const [row] = await messagesOf(t, AGENCY.demo, ID.zhang);
      expect(row).toMatchObject({
        content: `【测试】${event} 开`,
        msgStyleBig: MESSAGE_EVENTS[event].msgStyleBig,
        msgStyleSmall: 'customer',
        targetId: 7,
        known: false,
      });
      // Pushed to each recipient once the transaction committed.
      expect(on.pushed.map((p) => p.userId).sort()).toEqual([ID.li, ID.zhang].sort());
      expect(on.pushed[0]?.message.type).toBe('news');

      // 张伟 turns this setting off (others stay on): he gets nothing, 李晓梅 still does.
      expect((await setSettings(zhang, { [setting]: 0 })).data[setting]).toBe(0);
      const off = await notifyNow(t, {
        event,
        agencyId: AGENCY.demo,
        userIds: [ID.zhang, ID.li],
        content: `【测试】${event} 关`,
        msgStyleSmall: 'customer',
      });
      expect(off.users).toEqual([ID.li]);
      expect(off.pushed.map((p) => p.userId)).toEqual([ID.li]);
      expect((await messagesOf(t, AGENCY.demo, ID.zhang)).map((m) => m.content)).toEqual([`【测试】${event} 开`]);

      // Other settings being off does not mute this event.
      const others = Object.fromEntries(
        Object.values(SETTING_OF).map((s) => [s, s === setting ? 1 : 0]),
      ) as Partial<MsgSettings>;
      await setSettings(zhang, others);
      const again = await notifyNow(t, {
        event,
        agencyId: AGENCY.demo,
        userIds: [ID.zhang],
        content: `【测试】${event} 再开`,
        msgStyleSmall: 'customer',
      });
      expect(again.users).toEqual([ID.zhang]);
    });
  }

  it('system reminders reach the user whatever the settings say', async () => {
    await setSettings(zhang, { msg_fp: 0, msg_xjht: 0, msg_xjgd: 0, msg_sftx: 0 });
    const r = await notifyNow(t, {
      event: 'reminder',
      agencyId: AGENCY.demo,
      userIds: [ID.zhang, ID.zhang],
      content: '【系统提醒】测试',
      msgStyleSmall: 'system',
    });
    expect(r.users).toEqual([ID.zhang]);
    const rows = await messagesOf(t, AGENCY.demo, ID.zhang);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.msgStyleBig).toBe(2);
    await setSettings(zhang, { msg_fp: 1, msg_xjht: 1, msg_xjgd: 1, msg_sftx: 1 });
  });

  it('notifyEvent writes the label and the details page of the event', async () => {
    const push = localPushHub();
    const after: (() => Promise<void>)[] = [];
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      notifyEvent(tx, push, (fn) => void after.push(fn), {
        event: 'fp',
        agencyId: AGENCY.demo,
        userIds: [ID.zhang],
        detail: '客户「杭州云帆科技有限公司」已分配给您',
        targetId: 12,
      }),
    );
    const [row] = await messagesOf(t, AGENCY.demo, ID.zhang);
    expect(row).toMatchObject({
      content: '【客户分配提醒】客户「杭州云帆科技有限公司」已分配给您',
      msgStyleSmall: 'customer',
      msgStyleBig: 1,
      targetId: 12,
    });
  });

  it('nothing is created or pushed when the transaction rolls back', async () => {
    const push = localPushHub();
    const seen: unknown[] = [];
    push.subscribe(ID.zhang, (m) => seen.push(m));
    const after: (() => Promise<void>)[] = [];
    await expect(
      inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, async (tx) => {
        await notifyEvent(tx, push, (fn) => void after.push(fn), {
          event: 'xjgd',
          agencyId: AGENCY.demo,
          userIds: [ID.zhang],
          detail: '工单',
        });
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await messagesOf(t, AGENCY.demo, ID.zhang)).toHaveLength(0);
    expect(seen).toHaveLength(0);
  });
});

async function seedMessages(userId: number, n: number, msgStyleBig = 1, agencyId: number = AGENCY.demo) {
  const base = Date.now() - n * 60_000;
  await inScope(t.db.app, { agencyId, userId: null, kjgcId: null }, (tx) =>
    tx.insert(messages).values(
      Array.from({ length: n }, (_, i) => ({
        agencyId,
        userId,
        msgStyleBig,
        msgStyleSmall: 'customer',
        content: `【客户分配提醒】第${i + 1}条`,
        createdAt: new Date(base + i * 60_000),
      })),
    ),
  );
}

describe('the bell: news poll and mark known', () => {
  it('answers at most 3 unknown messages, newest first, and how many there are', async () => {
    await seedMessages(ID.zhang, 5);
    await seedMessages(ID.zhang, 1, 2);
    const r = await t.call<{ list: NewsItem[]; total: number }>(selectNewsCall.path, {}, zhang);
    expect(r.code).toBe(CODE.OK);
    expect(r.data.total).toBe(6);
    expect(r.data.list).toHaveLength(3);
    expect(r.data.list[0]).toMatchObject({ msgStyleBig: 2 });
    expect(r.data.list[1]?.content).toBe('【客户分配提醒】第5条');
    // Nobody else sees them.
    expect((await t.call<{ total: number }>(selectNewsCall.path, {}, li)).data.total).toBe(0);
    expect((await t.call<{ total: number }>(selectNewsCall.path, {}, otherAdmin)).data.total).toBe(0);
  });

  it('marks the caller’s own messages known (ids joined by @); the next ones come up', async () => {
    await seedMessages(ID.zhang, 4);
    const first = await t.call<{ list: NewsItem[] }>(selectNewsCall.path, {}, zhang);
    const ids = first.data.list.map((m) => m.id).join('@');
    const marked = await t.call<{ count: number }>(markNewsKnownCall.path, { ids }, zhang);
    expect(marked.code).toBe(CODE.OK);
    expect(marked.data.count).toBe(3);
    const next = await t.call<{ list: NewsItem[]; total: number }>(selectNewsCall.path, {}, zhang);
    expect(next.data.total).toBe(1);
    expect(next.data.list.map((m) => m.content)).toEqual(['【客户分配提醒】第1条']);
    // The message centre still lists the known ones.
    const all = await t.call<{ total: number }>(selectMsgListCall.path, { msg_style_big: 1 }, zhang);
    expect(all.data.total).toBe(4);
  });

  it('pops up what was pushed since the last ask (alertMessageInfo), only the caller’s own', async () => {
    const first = await t.call<{ list: NewsItem[]; pushTime: string }>(alertMessageInfoCall.path, {}, zhang);
    expect(first.code).toBe(CODE.OK);
    const after = Date.parse(first.data.pushTime);
    await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      tx.insert(messages).values(
        [1, 2].map((i) => ({
          agencyId: AGENCY.demo,
          userId: ID.zhang,
          msgStyleBig: 1,
          msgStyleSmall: 'customer',
          content: `【客户分配提醒】第${i}条`,
          createdAt: new Date(after + i),
        })),
      ),
    );
    const next = await t.call<{ list: NewsItem[]; pushTime: string }>(
      alertMessageInfoCall.path,
      { pushTime: first.data.pushTime },
      zhang,
    );
    expect(next.data.list.map((m) => m.content)).toEqual(['【客户分配提醒】第2条', '【客户分配提醒】第1条']);
    const none = await t.call<{ list: NewsItem[] }>(alertMessageInfoCall.path, { pushTime: next.data.pushTime }, zhang);
    expect(none.data.list).toEqual([]);
    const his = await t.call<{ list: NewsItem[] }>(alertMessageInfoCall.path, { pushTime: first.data.pushTime }, li);
    expect(his.data.list).toEqual([]);
    const bad = await t.call(alertMessageInfoCall.path, { pushTime: '昨天' }, zhang);
    expect([bad.code, bad.msg]).toEqual([CODE.BAD_REQUEST, '推送时间：推送时间格式不正确']);
    expect((await t.call(alertMessageInfoCall.path, { userId: 2 }, zhang)).code).toBe(CODE.BAD_REQUEST);
  });

  it('refuses ids of someone else’s messages and changes nothing (404)', async () => {
    await seedMessages(ID.zhang, 1);
    await seedMessages(ID.li, 1);
    const [mine] = await messagesOf(t, AGENCY.demo, ID.zhang);
    const [his] = await messagesOf(t, AGENCY.demo, ID.li);
    const r = await t.call(markNewsKnownCall.path, { ids: `${mine?.id}@${his?.id}` }, zhang);
    expect(r.status).toBe(404);
    expect(r.code).toBe(CODE.NOT_FOUND);
    expect((await messagesOf(t, AGENCY.demo, ID.zhang))[0]?.known).toBe(false);
    expect((await messagesOf(t, AGENCY.demo, ID.li))[0]?.known).toBe(false);
    // Another tenant's administrator cannot reach them either.
    expect((await t.call(markNewsKnownCall.path, { ids: String(mine?.id) }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    // An id that does not exist at all.
    expect((await t.call(markNewsKnownCall.path, { ids: '99999999' }, zhang)).code).toBe(CODE.NOT_FOUND);
  });

  it('checks its input and the session', async () => {
    expectBadInput(await t.call(markNewsKnownCall.path, { ids: '' }, zhang), '消息ID', '请选择消息');
    expectBadInput(
      await t.call(markNewsKnownCall.path, { ids: '1,2' }, zhang),
      '消息ID',
      '消息ID格式不正确（以@连接）',
    );
    expectBadInput(await t.call(markNewsKnownCall.path, { ids: 12 }, zhang), '消息ID');
    expectBadInput(await t.call(markNewsKnownCall.path, {}, zhang), '消息ID');
    expectUnknownField(await t.call(selectNewsCall.path, { agency_id: 1 }, zhang), 'agency_id');
    expectSignedOut(await t.call(selectNewsCall.path, {}));
    expectSignedOut(await t.call(markNewsKnownCall.path, { ids: '1' }));
  });
});

describe('the message list (派工消息 / 系统提醒)', () => {
  it('pages by 6, newest first, only the asked kind', async () => {
    await seedMessages(ID.zhang, 8, 1);
    await seedMessages(ID.zhang, 2, 2);
    const p1 = await t.call<{ list: MessageListItem[]; total: number }>(
      selectMsgListCall.path,
      { msg_style_big: 1, pageNo: 1, pageSize: 6 },
      zhang,
    );
    expect(p1.code).toBe(CODE.OK);
    expect(p1.data.total).toBe(8);
    expect(p1.data.list).toHaveLength(6);
    expect(p1.data.list[0]?.content).toBe('【客户分配提醒】第8条');
    expect(Object.keys(p1.data.list[0] ?? {}).sort()).toEqual(
      ['content', 'createTime', 'id', 'known', 'msgStyleSmall', 'targetId'].sort(),
    );
    const p2 = await t.call<{ list: MessageListItem[] }>(
      selectMsgListCall.path,
      { msg_style_big: 1, pageNo: 2, pageSize: 6 },
      zhang,
    );
    expect(p2.data.list.map((m) => m.content)).toEqual(['【客户分配提醒】第2条', '【客户分配提醒】第1条']);
    const reminders = await t.call<{ total: number }>(selectMsgListCall.path, { msg_style_big: 2 }, zhang);
    expect(reminders.data.total).toBe(2);
  });

  it('answers 406 暂无消息 when there is nothing, also to other users and tenants', async () => {
    await seedMessages(ID.zhang, 2, 1);
    for (const cookie of [li, otherAdmin, admin]) {
      const r = await t.call<{ list: unknown[] }>(selectMsgListCall.path, { msg_style_big: 1 }, cookie);
      expect(r.code).toBe(CODE.EMPTY);
      expect(r.msg).toBe(NO_MESSAGE_TEXT);
      expect(r.data.list).toEqual([]);
    }
    // A page past the end is not empty as a whole: it answers the total with no rows.
    const past = await t.call<{ list: unknown[]; total: number }>(
      selectMsgListCall.path,
      { msg_style_big: 1, pageNo: 5 },
      zhang,
    );
    expect(past.data).toEqual({ list: [], total: 2, cursor: { next: null, prev: null } });
  });

  it('checks its input and the session', async () => {
    expectBadInput(await t.call(selectMsgListCall.path, { msg_style_big: 3 }, zhang), '消息类型');
    expectBadInput(await t.call(selectMsgListCall.path, {}, zhang), '消息类型');
    expectBadInput(await t.call(selectMsgListCall.path, { msg_style_big: 1, pageNo: 0 }, zhang), '页码');
    expectBadInput(await t.call(selectMsgListCall.path, { msg_style_big: 1, pageSize: 500 }, zhang), '每页条数');
    expectUnknownField(await t.call(selectMsgListCall.path, { msg_style_big: 1, user_id: 1 }, zhang), 'user_id');
    expectSignedOut(await t.call(selectMsgListCall.path, { msg_style_big: 1 }));
  });
});

describe('message settings', () => {
  it('start all on; a change keeps the others and is audited', async () => {
    const fresh = await t.call<MsgSettings>(getMsgSettingsCall.path, {}, li);
    expect(fresh.data).toEqual({ msg_fp: 1, msg_xjht: 1, msg_xjgd: 1, msg_sftx: 1 });
    const r = await setSettings(li, { msg_xjht: 0 });
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({ msg_fp: 1, msg_xjht: 0, msg_xjgd: 1, msg_sftx: 1 });
    expect((await t.call<MsgSettings>(getMsgSettingsCall.path, {}, li)).data.msg_xjht).toBe(0);
    // Settings are per user: 张伟's are unaffected; another agency's administrator has his own.
    expect((await t.call<MsgSettings>(getMsgSettingsCall.path, {}, otherAdmin)).data.msg_xjht).toBe(1);
    const audited = await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      tx
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'message.settings'), eq(auditLog.userId, ID.li))),
    );
    expect(audited.length).toBeGreaterThan(0);
    await setSettings(li, { msg_xjht: 1 });
  });

  it('a factory user may change only customer allocation', async () => {
    const r = await setSettings(factory, { msg_fp: 0 });
    expect(r.code).toBe(CODE.OK);
    expect(r.data.msg_fp).toBe(0);
    const refused = await setSettings(factory, { msg_fp: 1, msg_xjht: 0 });
    expect(refused.code).toBe(CODE.BAD_REQUEST);
    expect(refused.msg).toBe(KJGC_SETTING_ONLY_MSG);
    expect((await t.call<MsgSettings>(getMsgSettingsCall.path, {}, factory)).data).toEqual({
      msg_fp: 0,
      msg_xjht: 1,
      msg_xjgd: 1,
      msg_sftx: 1,
    });
  });

  it('checks its input and the session', async () => {
    expectBadInput(await setSettings(li, { msg_fp: 2 as 1 }), '客户分配', '须为1（开）或0（关）');
    expectBadInput(await setSettings(li, { msg_sftx: '1' as unknown as 1 }), '收费提醒');
    const empty = await setSettings(li, {});
    expect(empty.code).toBe(CODE.BAD_REQUEST);
    expect(empty.msg).toBe('请选择要修改的设置');
    expectUnknownField(await t.call(updateMsgSettingsCall.path, { msg_fp: 1, user_id: 2 }, li), 'user_id');
    expectSignedOut(await t.call(getMsgSettingsCall.path, {}));
    expectSignedOut(await t.call(updateMsgSettingsCall.path, { msg_fp: 1 }));
  });
});

describe('system reminders sent by the platform', () => {
  it('reach the user in each agency they work in, and are pushed', async () => {
    const r = await t.call<{ count: number }>(
      sendSystemMsgCall.path,
      { phone: ZHANG, content: '系统将于今晚22:00维护' },
      operator,
    );
    expect(r.code).toBe(CODE.OK);
    expect(r.data.count).toBe(1);
    const list = await t.call<{ list: MessageListItem[] }>(selectMsgListCall.path, { msg_style_big: 2 }, zhang);
    expect(list.data.list[0]?.content).toBe('【系统提醒】系统将于今晚22:00维护');
    expect(list.data.list[0]?.msgStyleSmall).toBe('system');
  });

  it('are for operators only; unknown phones are 404; input is checked', async () => {
    expectNoPermission(await t.call(sendSystemMsgCall.path, { phone: ZHANG, content: 'x' }, admin));
    expectNoPermission(await t.call(sendSystemMsgCall.path, { phone: ZHANG, content: 'x' }, zhang));
    const unknown = await t.call(sendSystemMsgCall.path, { phone: '13999999999', content: 'x' }, operator);
    expect(unknown.code).toBe(CODE.NOT_FOUND);
    expectBadInput(await t.call(sendSystemMsgCall.path, { phone: '123', content: 'x' }, operator), '手机号');
    expectBadInput(await t.call(sendSystemMsgCall.path, { phone: ZHANG, content: ' ' }, operator), '内容');
    expectSignedOut(await t.call(sendSystemMsgCall.path, { phone: ZHANG, content: 'x' }));
  });

  it('an expiry reminder has no details link', () => {
    expect(EXPIRED_MARK).toBe('服务已到期');
  });
});

describe('the shared rules the pages use', () => {
  it('details links go by msgStyleSmall with news=1, never for 服务已到期 or system reminders', () => {
    expect(messageLink({ content: '【客户分配提醒】x', msgStyleSmall: 'customer' })).toBe('/customer/khgl/wdkh?news=1');
    expect(messageLink({ content: '【新建合同提醒】x', msgStyleSmall: 'contract' })).toBe('/contract/htgl/htlb?news=1');
    expect(messageLink({ content: '【新建工单提醒】x', msgStyleSmall: 'workorder' })).toBe(
      '/customer/swgl/workorder?news=1',
    );
    expect(messageLink({ content: '【收费提醒】x', msgStyleSmall: 'fee' })).toBe('/contractFee/sfgl/sflb?news=1');
    expect(messageLink({ content: '【服务已到期】客户「甲」', msgStyleSmall: 'customer' })).toBeNull();
    expect(messageLink({ content: '【系统提醒】维护', msgStyleSmall: 'system' })).toBeNull();
  });

  it('the bell cuts the bracketed label to 6 characters', () => {
    expect(bellText('【客户分配提醒】客户「甲」已分配给您')).toEqual({
      label: '【客户分配提醒】',
      rest: '客户「甲」已分配给您',
    });
    expect(bellText('【新建工单派工提醒】工单A')).toEqual({ label: '【新建工单派工…】', rest: '工单A' });
    expect(bellText('没有标签的消息内容')).toEqual({ label: '【没有标签的消…】', rest: '没有标签的消息内容' });
  });

  it('AI and hotlines are hidden only for kd agencies of province 120000', () => {
    expect(helpPanelHides({ sssf: '120000', orgType: 'kd' })).toBe(true);
    expect(helpPanelHides({ sssf: '120101', orgType: 'kd' })).toBe(true);
    expect(helpPanelHides({ sssf: '120000', orgType: 'dls' })).toBe(false);
    expect(helpPanelHides({ sssf: '330000', orgType: 'kd' })).toBe(false);
  });
});
