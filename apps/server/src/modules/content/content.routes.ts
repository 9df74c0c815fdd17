import {
  addWatchNowCall,
  addWatchOldCall,
  CODE,
  CONTENT_CATEGORIES,
  CONTENT_KINDS,
  CONTENT_MSG,
  chinaToday,
  contentAdminListCall,
  contentDeleteCall,
  contentSaveCall,
  filterVideoListCall,
  saveOrderCall,
  videoInfoCall,
  videoListCall,
} from '@dzy/shared';
import { and, asc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { contentItems, contentProgress } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { requireOperator } from '../message/announcement.routes.js';
import { contentFileRoutes, fileUrl, removeContentFiles } from './content.files.js';

type Row = typeof contentItems.$inferSelect;

/** The operator's order: sort_order ascending, then id (index content_items_order_idx / kind_order_idx). */
const ORDER = { name: 'order', keys: [contentItems.sortOrder, contentItems.id], desc: false };

const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filterOf(f: { kind?: string | undefined; category?: string | undefined; keyword?: string | undefined }) {
  const conds: SQL[] = [];
  if (f.kind) conds.push(eq(contentItems.kind, f.kind as Row['kind']));
  if (f.category) conds.push(eq(contentItems.category, f.category));
  if (f.keyword) {
    const k = contains(f.keyword);
    conds.push(or(ilike(contentItems.title, k), ilike(contentItems.summary, k)) as SQL);
  }
  return conds;
}

const mediaUrl = (r: Row) => (r.source === 'upload' ? fileUrl(r.videoFile) : r.source === 'link' ? r.videoUrl : '');

function shown(r: Row, position = 0) {
  return {
    id: r.id,
    kind: r.kind,
    category: r.category,
    title: r.title,
    summary: r.summary,
    source: r.source,
    mediaUrl: mediaUrl(r),
    coverUrl: r.coverFile ? fileUrl(r.coverFile) : '',
    durationSec: r.durationSec,
    watchCount: r.watchCount,
    publishedAt: r.publishedAt?.toISOString() ?? null,
    myPosition: position,
  };
}

async function positionsOf(tx: Queryable, userId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await tx
    .select({ id: contentProgress.contentId, pos: contentProgress.positionSec })
    .from(contentProgress)
    .where(and(eq(contentProgress.userId, userId), inArray(contentProgress.contentId, [...ids])));
  return new Map(rows.map((r) => [r.id, r.pos]));
}

/** A published item (readers), or any item (the operator); never told apart from a missing one. */
async function itemFor(tx: Queryable, session: SessionCtx, id: number): Promise<Row> {
  const [row] = await tx.select().from(contentItems).where(eq(contentItems.id, id));
  if (!row || (!row.published && !session.isOperator)) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
  return row;
}

export const contentCalls = [
  serve(filterVideoListCall, async ({ tx }) => {
    // Counts by kind and category of the published items: the classroom is small (hundreds, not millions).
    const rows = await tx
      .select({ kind: contentItems.kind, category: contentItems.category, n: sql<number>`count(*)::int` })
      .from(contentItems)
      .where(eq(contentItems.published, true))
      .groupBy(contentItems.kind, contentItems.category);
    const sum = (pick: (r: (typeof rows)[number]) => boolean) => rows.filter(pick).reduce((a, r) => a + Number(r.n), 0);
    return {
      kinds: CONTENT_KINDS.map((k) => ({ value: k.value, label: k.label, count: sum((r) => r.kind === k.value) })),
      categories: CONTENT_CATEGORIES.map((c) => ({ value: c, count: sum((r) => r.category === c) })),
    };
  }),

  serve(videoListCall, async ({ body, session, tx }) => {
    const { pageNo, pageSize, cursor, ...filter } = body;
    const where = and(eq(contentItems.published, true), ...filterOf(filter)) as SQL;
    const page = await listPage(
      tx,
      { from: sql`${contentItems}`, where, sort: ORDER, ask: { pageNo, pageSize, cursor }, filter },
      (ids) => tx.select().from(contentItems).where(inArray(contentItems.id, ids)),
    );
    const pos = await positionsOf(
      tx,
      session.userId,
      page.list.map((r) => r.id),
    );
    return { ...page, list: page.list.map((r) => shown(r, pos.get(r.id) ?? 0)) };
  }),

  serve(videoInfoCall, async ({ body, session, tx }) => {
    const row = await itemFor(tx, session, body.id);
    const pos = await positionsOf(tx, session.userId, [row.id]);
    return { ...shown(row, pos.get(row.id) ?? 0), body: row.body };
  }),

  // A view counts once per user, item and China day (content_count_view in 0030_content.sql).
  serve(addWatchNowCall, async ({ body, session, tx }) => {
    await itemFor(tx, session, body.id);
    const res = (await tx.execute(
      sql`select watch_count, counted from content_count_view(${body.id}::int, ${chinaToday()}::date)`,
    )) as unknown as { rows: { watch_count: number | null; counted: boolean }[] };
    const [row] = res.rows;
    if (!row || row.watch_count === null) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    return { watchCount: Number(row.watch_count), counted: row.counted === true };
  }),

  // The last position (and the length) of the caller's playback; the next open resumes there.
  serve(addWatchOldCall, async ({ body, session, tx }) => {
    await itemFor(tx, session, body.id);
    const position = Math.floor(body.position);
    const duration = Math.floor(body.duration ?? 0);
    await tx
      .insert(contentProgress)
      .values({ contentId: body.id, userId: session.userId, positionSec: position, durationSec: duration })
      .onConflictDoUpdate({
        target: [contentProgress.userId, contentProgress.contentId],
        set: { positionSec: position, durationSec: duration, updatedAt: new Date() },
      });
    return null;
  }),

  serve(contentAdminListCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const { pageNo, pageSize, cursor, ...filter } = body;
    const conds = filterOf(filter);
    const where = (conds.length ? and(...conds) : sql`true`) as SQL;
    const page = await listPage(
      tx,
      { from: sql`${contentItems}`, where, sort: ORDER, ask: { pageNo, pageSize, cursor }, filter },
      (ids) => tx.select().from(contentItems).where(inArray(contentItems.id, ids)),
    );
    return {
      ...page,
      list: page.list.map((r) => ({
        ...shown(r),
        body: r.body,
        published: r.published,
        sortOrder: r.sortOrder,
        videoFile: r.videoFile,
        videoUrl: r.videoUrl,
        coverFile: r.coverFile,
        updatedAt: r.updatedAt.toISOString(),
      })),
    };
  }),

  serve(contentSaveCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const news = body.kind === 'news';
    const values = {
      kind: body.kind,
      category: body.category,
      title: body.title,
      summary: body.summary,
      body: body.body,
      source: news ? ('none' as const) : body.source,
      videoFile: !news && body.source === 'upload' ? body.videoFile : '',
      videoUrl: !news && body.source === 'link' ? body.videoUrl : '',
      coverFile: body.coverFile,
      durationSec: news ? 0 : body.durationSec,
      published: body.published,
      updatedAt: new Date(),
    };
    if (body.id === undefined) {
      // A new item goes to the top of the list (before the current first).
      const [first] = await tx.select({ min: sql<number | null>`min(${contentItems.sortOrder})` }).from(contentItems);
      const sortOrder = first?.min === null || first?.min === undefined ? 0 : Number(first.min) - 1;
      const [row] = await tx
        .insert(contentItems)
        .values({
          ...values,
          sortOrder,
          createdBy: session.userId,
          publishedAt: body.published ? new Date() : null,
        })
        .returning({ id: contentItems.id });
      if (!row) throw new Error('content insert returned nothing');
      await audit(tx, req, session, 'content.create', String(row.id), { title: body.title, kind: body.kind });
      return { id: row.id };
    }
    const [old] = await tx.select().from(contentItems).where(eq(contentItems.id, body.id));
    if (!old) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    await tx
      .update(contentItems)
      .set({ ...values, publishedAt: body.published ? (old.publishedAt ?? new Date()) : old.publishedAt })
      .where(eq(contentItems.id, body.id));
    // Files the item no longer uses are removed once saved.
    const dropped = [old.videoFile, old.coverFile].filter((f) => f && f !== values.videoFile && f !== values.coverFile);
    if (dropped.length) await removeContentFiles(deps, dropped);
    await audit(tx, req, session, 'content.update', String(body.id), { title: body.title, published: body.published });
    return { id: body.id };
  }),

  serve(contentDeleteCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const [row] = await tx.delete(contentItems).where(eq(contentItems.id, body.id)).returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, CONTENT_MSG.notFound);
    await removeContentFiles(deps, [row.videoFile, row.coverFile].filter(Boolean));
    await audit(tx, req, session, 'content.delete', String(row.id), { title: row.title });
    return null;
  }),

  // The given items take the places they hold between them, in the given order: a page of the list can be
  // reordered without touching the rest.
  serve(saveOrderCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const read = () =>
      tx
        .select({ id: contentItems.id, sortOrder: contentItems.sortOrder })
        .from(contentItems)
        .where(inArray(contentItems.id, body.ids))
        .orderBy(asc(contentItems.sortOrder), asc(contentItems.id));
    let rows = await read();
    if (rows.length !== body.ids.length) throw new AppError(CODE.BAD_REQUEST, CONTENT_MSG.orderMismatch);
    if (new Set(rows.map((r) => r.sortOrder)).size !== rows.length) {
      // Places tied (older data): number the whole (small) list 1..n in its current order first.
      await tx.execute(sql`update content_items c set sort_order = o.n
        from (select id, row_number() over (order by sort_order, id)::int as n from content_items) o
        where o.id = c.id`);
      rows = await read();
    }
    const slots = rows.map((r) => r.sortOrder);
    for (const [i, id] of body.ids.entries()) {
      await tx
        .update(contentItems)
        .set({ sortOrder: slots[i] ?? i })
        .where(eq(contentItems.id, id));
    }
    await audit(tx, req, session, 'content.order', `items:${body.ids.length}`, { ids: body.ids });
    return null;
  }),
];

export const contentModule: ServerModule = {
  name: 'content',
  calls: contentCalls,
  routes: contentFileRoutes,
};
