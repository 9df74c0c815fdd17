import {
  addWatchNowCall,
  addWatchOldCall,
  CODE,
  type ContentAdminItem,
  type ContentItem,
  contentAdminListCall,
  contentDeleteCall,
  contentSaveCall,
  filterVideoListCall,
  saveOrderCall,
  videoInfoCall,
  videoListCall,
} from '@dzy/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setScope } from '../src/db/client.js';
import { DEMO_CONTENT } from '../src/modules/content/content.seed.js';
import { ADMIN, FACTORY, OTHER_ADMIN, ZHANG } from './customer-helpers.js';
import { startTestApp, type TestApp } from './harness.js';

const OPERATOR = '13600000000';
let t: TestApp;
const c = { admin: '', zhang: '', other: '', factory: '', op: '' };

beforeAll(async () => {
  t = await startTestApp();
  c.admin = await t.login(ADMIN);
  c.zhang = await t.login(ZHANG);
  c.other = await t.login(OTHER_ADMIN);
  c.factory = await t.login(FACTORY);
  c.op = await t.login(OPERATOR);
});
afterAll(() => t?.close());

type Page<T> = { list: T[]; total: number };
async function list(cookie: string, body: Record<string, unknown> = {}) {
  const r = await t.call<Page<ContentItem>>(videoListCall.path, { pageSize: 100, ...body }, cookie);
  expect(r.code).toBe(CODE.OK);
  return r.data;
}
async function adminList() {
  const r = await t.call<Page<ContentAdminItem>>(contentAdminListCall.path, { pageSize: 100 }, c.op);
  expect(r.code).toBe(CODE.OK);
  return r.data;
}

/** A multipart body with one file field. */
function multipart(name: string, bytes: Buffer) {
  const boundary = '----dzycontent';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}
/** A tiny file that begins like an MP4 (an ftyp box), then counting bytes. */
const fakeMp4 = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom'),
    Buffer.alloc(12),
    Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)),
  ]);

async function upload(cookie: string, name: string, bytes: Buffer, kind = 'video') {
  const { payload, contentType } = multipart(name, bytes);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/content/upload?kind=${kind}`,
    headers: { cookie, 'content-type': contentType },
    payload,
  });
  return res.json() as { code: number; msg: string; data: { file: string; url: string; size: number } };
}

describe('财税课堂: what readers see', () => {
  it('every agency (and the accounting factory) sees the same published items, in the operator order', async () => {
    const lists = await Promise.all([c.admin, c.zhang, c.other, c.factory].map((k) => list(k)));
    const titles = lists.map((l) => l.list.map((i) => i.title));
    expect(titles[0]).toEqual(DEMO_CONTENT.map((d) => d.title));
    for (const other of titles.slice(1)) expect(other).toEqual(titles[0]);
    expect(lists[0]?.total).toBe(DEMO_CONTENT.length);
  });

  it('filters by kind, category and keyword; filterVideoList counts the published items', async () => {
    const news = await list(c.admin, { kind: 'news' });
    expect(news.list.every((i) => i.kind === 'news')).toBe(true);
    expect(news.total).toBe(DEMO_CONTENT.filter((d) => d.kind === 'news').length);
    const tax = await list(c.admin, { category: '个人所得税' });
    expect(tax.list.map((i) => i.title).sort()).toEqual(
      DEMO_CONTENT.filter((d) => d.category === '个人所得税')
        .map((d) => d.title)
        .sort(),
    );
    const found = await list(c.admin, { keyword: '汇算清缴' });
    expect(found.list.map((i) => i.title)).toEqual(['企业所得税汇算清缴实务讲座']);
    const f = await t.call<{ kinds: { value: string; count: number }[] }>(filterVideoListCall.path, {}, c.zhang);
    expect(f.data.kinds.find((k) => k.value === 'lecture')?.count).toBe(3);
  });

  it('signed-out callers get nothing', async () => {
    const r = await t.call(videoListCall.path, {});
    expect(r.code).toBe(CODE.SESSION_EXPIRED);
  });
});

describe('财税课堂: only the platform operator writes', () => {
  it("an agency administrator's calls are refused (460) and nothing changes", async () => {
    const [first] = (await list(c.admin)).list;
    const save = await t.call(
      contentSaveCall.path,
      { kind: 'news', category: '政策解读', title: '越权新闻', body: '正文', source: 'none' },
      c.admin,
    );
    expect(save.code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(contentDeleteCall.path, { id: first?.id }, c.admin)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(saveOrderCall.path, { ids: [first?.id] }, c.admin)).code).toBe(CODE.NO_PERMISSION);
    expect((await t.call(contentAdminListCall.path, {}, c.zhang)).code).toBe(CODE.NO_PERMISSION);
    expect((await upload(c.admin, 'a.mp4', fakeMp4())).code).toBe(CODE.NO_PERMISSION);
    expect((await list(c.admin)).total).toBe(DEMO_CONTENT.length);
  });

  it('row-level security refuses an agency user writing content directly, but lets them read it', async () => {
    const [row] = await t.ownerQuery<{ id: number }>('select id from content_items order by id limit 1');
    const asAgencyUser = <T>(fn: (tx: Parameters<Parameters<typeof t.db.app.transaction>[0]>[0]) => Promise<T>) =>
      t.db.app.transaction(async (tx) => {
        await setScope(tx, { agencyId: 1, userId: 1, kjgcId: null });
        return fn(tx);
      });
    const seen = await asAgencyUser(async (tx) => {
      const r = (await tx.execute(sql`select count(*)::int as n from content_items`)) as unknown as {
        rows: { n: number }[];
      };
      return r.rows[0]?.n;
    });
    expect(seen).toBe(DEMO_CONTENT.length);
    await expect(
      asAgencyUser((tx) =>
        tx.execute(sql`insert into content_items (kind, category, title) values ('news', '政策解读', '越权')`),
      ),
    ).rejects.toThrow();
    const updated = await asAgencyUser(async (tx) => {
      const r = (await tx.execute(
        sql`update content_items set title = '被改了' where id = ${row?.id} returning id`,
      )) as unknown as { rows: unknown[] };
      return r.rows.length;
    });
    expect(updated).toBe(0);
    const deleted = await asAgencyUser(async (tx) => {
      const r = (await tx.execute(sql`delete from content_items returning id`)) as unknown as { rows: unknown[] };
      return r.rows.length;
    });
    expect(deleted).toBe(0);
    const [after] = await t.ownerQuery<{ title: string }>('select title from content_items where id = $1', [row?.id]);
    expect(after?.title).toBe(DEMO_CONTENT[0]?.title);
  });

  it('an unpublished item is the operator’s only; publishing puts it at the top for everyone', async () => {
    const save = await t.call<{ id: number }>(
      contentSaveCall.path,
      {
        kind: 'news',
        category: '增值税',
        title: '增值税法实施条例征求意见',
        summary: '草稿',
        body: '第一段。\n\n第二段。',
        source: 'none',
        published: false,
      },
      c.op,
    );
    expect(save.code).toBe(CODE.OK);
    const id = save.data.id;
    expect((await list(c.other)).list.some((i) => i.id === id)).toBe(false);
    expect((await t.call(videoInfoCall.path, { id }, c.other)).code).toBe(CODE.NOT_FOUND);
    expect((await adminList()).list[0]?.id).toBe(id);
    const pub = await t.call(
      contentSaveCall.path,
      {
        id,
        kind: 'news',
        category: '增值税',
        title: '增值税法实施条例征求意见',
        body: '第一段。\n\n第二段。',
        source: 'none',
        published: true,
      },
      c.op,
    );
    expect(pub.code).toBe(CODE.OK);
    for (const k of [c.admin, c.other]) expect((await list(k)).list[0]?.id).toBe(id);
    const info = await t.call<{ body: string }>(videoInfoCall.path, { id }, c.zhang);
    expect(info.data.body).toBe('第一段。\n\n第二段。');
    expect((await t.call(contentDeleteCall.path, { id }, c.op)).code).toBe(CODE.OK);
    expect((await list(c.admin)).list.some((i) => i.id === id)).toBe(false);
  });

  it('validates with clear Chinese messages', async () => {
    const news = await t.call(
      contentSaveCall.path,
      { kind: 'news', category: '增值税', title: '没有正文', source: 'none' },
      c.op,
    );
    expect(news.code).toBe(CODE.BAD_REQUEST);
    expect(news.msg).toContain('新闻请填写正文');
    const link = await t.call(
      contentSaveCall.path,
      { kind: 'lecture', category: '增值税', title: '链接有误', source: 'link', videoUrl: 'javascript:alert(1)' },
      c.op,
    );
    expect(link.code).toBe(CODE.BAD_REQUEST);
    expect(link.msg).toContain('http');
  });

  it('saveOrder: the order the operator saves is the order every reader gets', async () => {
    const before = (await list(c.admin)).list.map((i) => i.id);
    const reversed = [...before].reverse();
    expect((await t.call(saveOrderCall.path, { ids: reversed }, c.op)).code).toBe(CODE.OK);
    expect((await list(c.other)).list.map((i) => i.id)).toEqual(reversed);
    // A part of the list (one page) moves among its own places only.
    const [a, b, ...rest] = reversed;
    expect((await t.call(saveOrderCall.path, { ids: [b, a] }, c.op)).code).toBe(CODE.OK);
    expect((await list(c.zhang)).list.map((i) => i.id)).toEqual([b, a, ...rest]);
    const bad = await t.call(saveOrderCall.path, { ids: [a, 999_999] }, c.op);
    expect(bad.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('财税课堂: watch counts and progress', () => {
  it('addWatchNow counts once per user, item and day; addWatchOld keeps the position', async () => {
    const [item] = (await list(c.admin)).list;
    const id = item?.id as number;
    const start = item?.watchCount as number;
    const first = await t.call<{ watchCount: number; counted: boolean }>(addWatchNowCall.path, { id }, c.admin);
    expect(first.data).toEqual({ watchCount: start + 1, counted: true });
    const again = await t.call<{ watchCount: number; counted: boolean }>(addWatchNowCall.path, { id }, c.admin);
    expect(again.data).toEqual({ watchCount: start + 1, counted: false });
    const other = await t.call<{ watchCount: number; counted: boolean }>(addWatchNowCall.path, { id }, c.other);
    expect(other.data).toEqual({ watchCount: start + 2, counted: true });
    expect((await list(c.zhang)).list[0]?.watchCount).toBe(start + 2);
    // Yesterday's view does not stop today's from counting.
    await t.ownerQuery(
      'update content_views set day = day - 1 where user_id = (select id from users where phone = $1)',
      [ADMIN],
    );
    const nextDay = await t.call<{ watchCount: number; counted: boolean }>(addWatchNowCall.path, { id }, c.admin);
    expect(nextDay.data).toEqual({ watchCount: start + 3, counted: true });

    expect((await t.call(addWatchOldCall.path, { id, position: 125.4, duration: 600 }, c.zhang)).code).toBe(CODE.OK);
    expect((await list(c.zhang)).list[0]?.myPosition).toBe(125);
    expect((await list(c.admin)).list[0]?.myPosition).toBe(0);
    expect((await t.call(addWatchNowCall.path, { id: 999_999 }, c.admin)).code).toBe(CODE.NOT_FOUND);
  });
});

describe('财税课堂: uploaded videos', () => {
  it('the operator uploads a video; readers stream it with ranges once an item uses it', async () => {
    const bytes = fakeMp4();
    const up = await upload(c.op, '讲座.mp4', bytes);
    expect(up.code).toBe(CODE.OK);
    expect(up.data.size).toBe(bytes.length);
    // Not yet used by a published item: readers get 404.
    const early = await t.app.inject({ method: 'GET', url: up.data.url, headers: { cookie: c.zhang } });
    expect(early.statusCode).toBe(404);
    const save = await t.call<{ id: number }>(
      contentSaveCall.path,
      { kind: 'video', category: '财务会计', title: '上传的视频', source: 'upload', videoFile: up.data.file },
      c.op,
    );
    expect(save.code).toBe(CODE.OK);
    const item = (await list(c.zhang)).list.find((i) => i.id === save.data.id);
    expect(item?.mediaUrl).toBe(up.data.url);
    const whole = await t.app.inject({ method: 'GET', url: up.data.url, headers: { cookie: c.zhang } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    const part = await t.app.inject({
      method: 'GET',
      url: up.data.url,
      headers: { cookie: c.zhang, range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await t.app.inject({
      method: 'GET',
      url: up.data.url,
      headers: { cookie: c.zhang, range: 'bytes=-10' },
    });
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const beyond = await t.app.inject({
      method: 'GET',
      url: up.data.url,
      headers: { cookie: c.zhang, range: `bytes=${bytes.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    const anon = await t.app.inject({ method: 'GET', url: up.data.url });
    expect(anon.json().code).toBe(CODE.SESSION_EXPIRED);
  });

  it('refuses files that are not videos (by their bytes) and covers that are not images', async () => {
    const txt = await upload(c.op, 'x.mp4', Buffer.from('not a video at all, just text'));
    expect(txt.code).toBe(CODE.BAD_REQUEST);
    expect(txt.msg).toBe('视频仅支持 MP4 或 WebM 格式');
    const cover = await upload(c.op, 'c.png', fakeMp4(), 'cover');
    expect(cover.code).toBe(CODE.BAD_REQUEST);
    expect(cover.msg).toBe('封面仅支持 JPG 或 PNG 图片');
  });
});
