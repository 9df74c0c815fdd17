import {
  type AdminAnnouncement,
  type Announcement,
  type ChatSession,
  CODE,
  createChatSessionCall,
  deleteAnnouncementCall,
  getHotlinesCall,
  getLastChatSessionCall,
  type Hotline,
  insertServiceLogCall,
  listAnnouncementsAdminCall,
  NO_MESSAGE_TEXT,
  publishAnnouncementCall,
  type ServiceEnt,
  saveHotlinesCall,
  selectAnnouncementsCall,
  serviceEntListCall,
  updateChatSessionCall,
} from '@dzy/shared';
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inScope } from '../src/db/client.js';
import { chatSessions, enterprises, organisations } from '../src/db/schema/index.js';
import { startTestApp, type TestApp } from './harness.js';
import { expectBadInput, expectNoPermission, expectSignedOut, expectUnknownField } from './helpers.js';
import { AGENCY, OPERATOR } from './message-helpers.js';
import { ADMIN, FACTORY, ID, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

let t: TestApp;
let admin: string;
let zhang: string;
let li: string;
let otherAdmin: string;
let factory: string;
let operator: string;

beforeAll(async () => {
  t = await startTestApp({
    // The second agency becomes a kd agency in Tianjin (province 120000): its help panel hides AI and hotlines.
    prepare: async (owner) => {
      await owner
        .update(organisations)
        .set({ orgType: 'kd', sssf: '120000' })
        .where(eq(organisations.id, AGENCY.other));
    },
  });
  admin = await t.login(ADMIN);
  zhang = await t.login(ZHANG);
  li = await t.login(LI);
  otherAdmin = await t.login(OTHER_ADMIN);
  factory = await t.login(FACTORY);
  operator = await t.login(OPERATOR);
});
afterAll(() => t.close());

const publish = (body: Record<string, unknown>, cookie = operator) =>
  t.call<{ id: number }>(publishAnnouncementCall.path, body, cookie);
const announcementsOf = (cookie: string, body: Record<string, unknown> = {}) =>
  t.call<{ list: Announcement[]; total: number }>(selectAnnouncementsCall.path, body, cookie);

describe('system announcements', () => {
  it('406 暂无消息 before anything is published', async () => {
    const r = await announcementsOf(zhang);
    expect(r.code).toBe(CODE.EMPTY);
    expect(r.msg).toBe(NO_MESSAGE_TEXT);
  });

  it('are sanitised on publish by an allow-list: no script, handlers or javascript: links survive', async () => {
    const dirty = [
      '<div style="background-image:url(https://cdn.example.com/bg.png);color:#333;position:fixed">',
      '<h2 onclick="alert(1)">春节放假通知</h2>',
      '<script>alert(document.cookie)</script>',
      '<p>放假时间：2月9日至2月17日。<a href="javascript:alert(1)">点此</a> <a href="https://example.com/x">详情</a></p>',
      '<img src="x" onerror="alert(1)"><img src="data:image/svg+xml;base64,PHN2Zz4=">',
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>',
      '</div>',
    ].join('');
    const r = await publish({ messageTitle: ' 春节放假通知 ', messageInfo: dirty });
    expect(r.code).toBe(CODE.OK);
    const list = await announcementsOf(zhang);
    const a = list.data.list[0];
    expect(a?.messageTitle).toBe('春节放假通知');
    const html = a?.messageInfo ?? '';
    for (const bad of ['<script', 'onclick', 'onerror', 'javascript:', '<iframe', '<style', 'position', 'svg']) {
      expect(html.toLowerCase()).not.toContain(bad);
    }
    expect(html).toContain('<h2>春节放假通知</h2>');
    expect(html).toContain('href="https://example.com/x"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(a?.bgImage).toBe('https://cdn.example.com/bg.png');
    expect(a?.fbTime).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The stored text is the sanitised one (checked again on every read).
    // Operators act outside any tenant: their audit rows (agency null) are read as the owner.
    if (t.kind === 'postgres') {
      const audited = await t.ownerQuery(`select * from audit_log where action = 'announcement.publish'`);
      expect(audited).toHaveLength(1);
    }
  });

  it('reach every agency, or only the agencies of one province', async () => {
    await publish({ messageTitle: '浙江省税务提示', messageInfo: '<p>浙江</p>', sssf: '330000' });
    await publish({ messageTitle: '广东省税务提示', messageInfo: '<p>广东</p>', sssf: '440000' });
    // 演示财税 is in 浙江 (330000); the second agency now in 天津 (120000).
    const demo = await announcementsOf(zhang);
    expect(demo.data.list.map((a) => a.messageTitle)).toEqual(['浙江省税务提示', '春节放假通知']);
    const other = await announcementsOf(otherAdmin);
    expect(other.data.list.map((a) => a.messageTitle)).toEqual(['春节放假通知']);
    // A factory user sees its agency's province.
    expect((await announcementsOf(factory)).data.total).toBe(2);
    const paged = await announcementsOf(zhang, { pageNo: 2, pageSize: 1 });
    expect(paged.data.list.map((a) => a.messageTitle)).toEqual(['春节放假通知']);
  });

  it('operators list, filter and delete them', async () => {
    const all = await t.call<{ list: AdminAnnouncement[]; total: number }>(
      listAnnouncementsAdminCall.path,
      {},
      operator,
    );
    expect(all.data.total).toBe(3);
    expect(all.data.list.map((a) => a.provinceName)).toEqual(['广东省', '浙江省', '全部机构']);
    expect(all.data.list[0]?.publisherName).toBe('平台运营');
    const gd = await t.call<{ list: AdminAnnouncement[] }>(
      listAnnouncementsAdminCall.path,
      { sssf: '440000' },
      operator,
    );
    expect(gd.data.list.map((a) => a.messageTitle)).toEqual(['广东省税务提示']);
    const kw = await t.call<{ total: number }>(listAnnouncementsAdminCall.path, { keyword: '春节' }, operator);
    expect(kw.data.total).toBe(1);
    const id = gd.data.list[0]?.id ?? 0;
    expect((await t.call(deleteAnnouncementCall.path, { id }, operator)).code).toBe(CODE.OK);
    const again = await t.call(deleteAnnouncementCall.path, { id }, operator);
    expect(again.code).toBe(CODE.NOT_FOUND);
    expect((await t.call<{ total: number }>(listAnnouncementsAdminCall.path, {}, operator)).data.total).toBe(2);
  });

  it('only operators publish, list and delete; input is checked', async () => {
    for (const cookie of [admin, zhang]) {
      expectNoPermission(await publish({ messageTitle: 'x', messageInfo: '<p>x</p>' }, cookie));
      expectNoPermission(await t.call(listAnnouncementsAdminCall.path, {}, cookie));
      expectNoPermission(await t.call(deleteAnnouncementCall.path, { id: 1 }, cookie));
    }
    expectSignedOut(await publish({ messageTitle: 'x', messageInfo: '<p>x</p>' }, ''));
    expectSignedOut(await announcementsOf(''));
    expectBadInput(await publish({ messageTitle: '', messageInfo: '<p>x</p>' }), '公告标题', '请输入公告标题');
    expectBadInput(await publish({ messageTitle: 'x'.repeat(101), messageInfo: '<p>x</p>' }), '公告标题');
    expectBadInput(await publish({ messageTitle: 'x', messageInfo: '' }), '公告内容', '请输入公告内容');
    expectBadInput(await publish({ messageTitle: 'x', messageInfo: '<p>x</p>', sssf: '330100' }), '所属省份');
    // Nothing left after sanitising is no content.
    const onlyScript = await publish({ messageTitle: 'x', messageInfo: '<script>alert(1)</script>' });
    expect(onlyScript.code).toBe(CODE.BAD_REQUEST);
    expect(onlyScript.msg).toBe('公告内容：请输入公告内容');
    expectUnknownField(await publish({ messageTitle: 'x', messageInfo: '<p>x</p>', agencyId: 1 }), 'agencyId');
    expectBadInput(await t.call(deleteAnnouncementCall.path, { id: 'a' }, operator), 'ID');
  });
});

describe('the help panel: hotlines', () => {
  it('the administrator replaces the list; staff and the factory read it; other tenants do not', async () => {
    const saved = await t.call<{ list: Hotline[] }>(
      saveHotlinesCall.path,
      {
        list: [
          { rxmc: '客服热线', rxnr: '400-800-1234' },
          { rxmc: '技术支持', rxnr: '0571-88886666 转 8' },
        ],
      },
      admin,
    );
    expect(saved.code).toBe(CODE.OK);
    expect(saved.data.list.map((h) => h.rxmc)).toEqual(['客服热线', '技术支持']);
    const seen = await t.call<{ list: Hotline[]; showAiAndHotline: boolean; editable: boolean }>(
      getHotlinesCall.path,
      {},
      zhang,
    );
    expect(seen.data).toMatchObject({ showAiAndHotline: true, editable: false });
    expect(seen.data.list.map((h) => h.rxnr)).toEqual(['400-800-1234', '0571-88886666 转 8']);
    expect((await t.call<{ editable: boolean }>(getHotlinesCall.path, {}, admin)).data.editable).toBe(true);
    expect((await t.call<{ list: Hotline[] }>(getHotlinesCall.path, {}, factory)).data.list).toHaveLength(2);
    // Replacing with one line leaves one line.
    await t.call(saveHotlinesCall.path, { list: [{ rxmc: '客服热线', rxnr: '400-800-1234' }] }, admin);
    expect((await t.call<{ list: Hotline[] }>(getHotlinesCall.path, {}, li)).data.list).toHaveLength(1);
  });

  it('hidden, with AI consultation, for kd agencies in province 120000', async () => {
    await t.call(saveHotlinesCall.path, { list: [{ rxmc: '天津热线', rxnr: '022-12345678' }] }, otherAdmin);
    const r = await t.call<{ list: Hotline[]; showAiAndHotline: boolean }>(getHotlinesCall.path, {}, otherAdmin);
    expect(r.data).toMatchObject({ list: [], showAiAndHotline: false });
  });

  it('only the administrator edits; input is checked', async () => {
    expectNoPermission(await t.call(saveHotlinesCall.path, { list: [] }, zhang));
    expectNoPermission(await t.call(saveHotlinesCall.path, { list: [] }, factory));
    expectSignedOut(await t.call(saveHotlinesCall.path, { list: [] }));
    expectSignedOut(await t.call(getHotlinesCall.path, {}));
    expectBadInput(await t.call(saveHotlinesCall.path, { list: [{ rxmc: '', rxnr: '400' }] }, admin), '热线名称');
    expectBadInput(await t.call(saveHotlinesCall.path, { list: [{ rxmc: '热线', rxnr: 'abc' }] }, admin), '热线号码');
    const tooMany = Array.from({ length: 11 }, () => ({ rxmc: 'a', rxnr: '1' }));
    expect((await t.call(saveHotlinesCall.path, { list: tooMany }, admin)).code).toBe(CODE.BAD_REQUEST);
    expectUnknownField(await t.call(saveHotlinesCall.path, { list: [], agencyId: 2 }, admin), 'agencyId');
  });
});

describe('incoming chat sessions', () => {
  let sessionId = 0;

  it('an operator opens one for a user; the user sees it pending', async () => {
    expect((await t.call(getLastChatSessionCall.path, {}, zhang)).code).toBe(CODE.EMPTY);
    const r = await t.call<{ id: number }>(
      createChatSessionCall.path,
      { phone: ZHANG, qysh: '', url: 'https://service.example.com/chat/1' },
      operator,
    );
    expect(r.code).toBe(CODE.OK);
    sessionId = r.data.id;
    const pending = await t.call<ChatSession>(getLastChatSessionCall.path, {}, zhang);
    expect(pending.data).toMatchObject({ id: sessionId, status: 1, url: 'https://service.example.com/chat/1' });
    // Nobody else has it.
    expect((await t.call(getLastChatSessionCall.path, {}, li)).code).toBe(CODE.EMPTY);
  });

  it('only its user answers it, once: 2 accepted or 3 refused', async () => {
    expect((await t.call(updateChatSessionCall.path, { id: sessionId, status: 2 }, li)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(updateChatSessionCall.path, { id: sessionId, status: 2 }, otherAdmin)).code).toBe(
      CODE.NOT_FOUND,
    );
    const ok = await t.call<ChatSession>(updateChatSessionCall.path, { id: sessionId, status: 2 }, zhang);
    expect(ok.code).toBe(CODE.OK);
    expect(ok.data.status).toBe(2);
    const twice = await t.call(updateChatSessionCall.path, { id: sessionId, status: 3 }, zhang);
    expect(twice.code).toBe(CODE.CONFLICT);
    expect((await t.call(getLastChatSessionCall.path, {}, zhang)).code).toBe(CODE.EMPTY);
    const [row] = await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      tx.select().from(chatSessions).where(eq(chatSessions.id, sessionId)),
    );
    expect(row?.status).toBe(2);
  });

  it('a refusal is recorded as 3', async () => {
    const r = await t.call<{ id: number }>(createChatSessionCall.path, { phone: ZHANG }, operator);
    const refused = await t.call<ChatSession>(updateChatSessionCall.path, { id: r.data.id, status: 3 }, zhang);
    expect(refused.data.status).toBe(3);
  });

  it('checks operators, input and the session', async () => {
    expectNoPermission(await t.call(createChatSessionCall.path, { phone: ZHANG }, admin));
    expectBadInput(
      await t.call(createChatSessionCall.path, { phone: ZHANG, url: 'javascript:alert(1)' }, operator),
      '链接',
    );
    expect((await t.call(createChatSessionCall.path, { phone: '13912345678' }, operator)).code).toBe(CODE.NOT_FOUND);
    expectBadInput(await t.call(updateChatSessionCall.path, { id: 1, status: 1 }, zhang), '状态');
    expectSignedOut(await t.call(getLastChatSessionCall.path, {}));
    expectSignedOut(await t.call(updateChatSessionCall.path, { id: 1, status: 2 }));
  });
});

describe('online service: the enterprise chooser', () => {
  it('lists the caller’s own clients, 20 a page, searchable by name or tax number', async () => {
    const mine = await t.call<{ list: ServiceEnt[]; total: number }>(serviceEntListCall.path, {}, zhang);
    expect(mine.code).toBe(CODE.OK);
    expect(mine.data.total).toBe(20);
    expect(mine.data.list).toHaveLength(20);
    const all = await t.call<{ total: number }>(serviceEntListCall.path, { pageSize: 10 }, admin);
    expect(all.data.total).toBe(60);
    const someone = mine.data.list[3] as ServiceEnt;
    const byName = await t.call<{ list: ServiceEnt[] }>(serviceEntListCall.path, { qymc: someone.qymc }, zhang);
    expect(byName.data.list.map((e) => e.id)).toContain(someone.id);
    const taxed = mine.data.list.find((e) => e.qysh.length >= 15) as ServiceEnt;
    const byTax = await t.call<{ list: ServiceEnt[] }>(serviceEntListCall.path, { qymc: taxed.qysh }, zhang);
    expect(byTax.data.list.map((e) => e.id)).toEqual([taxed.id]);
  });

  it('records a request for an enterprise in scope; 404 for anyone else’s', async () => {
    const mine = await t.call<{ list: ServiceEnt[] }>(serviceEntListCall.path, { pageSize: 20 }, zhang);
    const ent = mine.data.list.find((e) => e.qysh !== '') as ServiceEnt;
    const ok = await t.call<{ qymc: string }>(insertServiceLogCall.path, { qysh: ent.qysh }, zhang);
    expect(ok.data.qymc).toBe(ent.qymc);
    const [notMine] = await inScope(t.db.app, { agencyId: AGENCY.demo, userId: null, kjgcId: null }, (tx) =>
      tx
        .select({ qysh: enterprises.qysh })
        .from(enterprises)
        .where(
          and(eq(enterprises.agencyId, AGENCY.demo), eq(enterprises.allocateUser, ID.admin), ne(enterprises.qysh, '')),
        )
        .limit(1),
    );
    expect((await t.call(insertServiceLogCall.path, { qysh: notMine?.qysh }, zhang)).code).toBe(CODE.NOT_FOUND);
    expect((await t.call(insertServiceLogCall.path, { qysh: ent.qysh }, otherAdmin)).code).toBe(CODE.NOT_FOUND);
    expectBadInput(await t.call(insertServiceLogCall.path, { qysh: '' }, zhang), '企业税号', '请选择企业');
    expectSignedOut(await t.call(serviceEntListCall.path, {}));
  });
});
