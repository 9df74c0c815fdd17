import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgPolicy, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { appRole, currentUser } from './tenancy.js';
import { users } from './user.js';

/**
 * 财税课堂 (issue 17 point 5): platform-wide, no agency. Every signed-in user reads published items;
 * only a platform operator (users.is_operator of app_user()) reads unpublished ones and writes. Watch
 * counts are bumped by content_count_view() (SECURITY DEFINER), the one way a reader changes an item.
 */
const isOperator = sql`exists (select 1 from users u where u.id = app_user() and u.is_operator)`;

export const contentItems = pgTable(
  'content_items',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().$type<'video' | 'lecture' | 'news'>().notNull(),
    category: text().notNull(),
    title: text().notNull(),
    summary: text().notNull().default(''),
    /** News text (plain paragraphs). */
    body: text().notNull().default(''),
    source: text().$type<'upload' | 'link' | 'none'>().notNull().default('none'),
    /** Stored name of an uploaded video under uploads/content. */
    videoFile: text('video_file').notNull().default(''),
    videoUrl: text('video_url').notNull().default(''),
    coverFile: text('cover_file').notNull().default(''),
    durationSec: integer('duration_sec').notNull().default(0),
    published: boolean().notNull().default(true),
    /** The operator's order (saveOrder): ascending, then id. */
    sortOrder: integer('sort_order').notNull().default(0),
    watchCount: integer('watch_count').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    publishedAt: timestamp('published_at', { withTimezone: true }),
  },
  (t) => [
    index('content_items_order_idx').on(t.sortOrder, t.id),
    index('content_items_kind_order_idx').on(t.kind, t.sortOrder, t.id),
    pgPolicy('content_items_read', {
      to: appRole,
      for: 'select',
      using: sql`${currentUser} is not null and (${t.published} or ${isOperator})`,
    }),
    pgPolicy('content_items_insert', { to: appRole, for: 'insert', withCheck: isOperator }),
    pgPolicy('content_items_update', { to: appRole, for: 'update', using: isOperator, withCheck: isOperator }),
    pgPolicy('content_items_delete', { to: appRole, for: 'delete', using: isOperator }),
  ],
).enableRLS();

/** One row per user, item and China day: a view counted (addWatchNow). */
export const contentViews = pgTable(
  'content_views',
  {
    contentId: integer('content_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    day: date().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.contentId, t.userId, t.day] }),
    pgPolicy('content_views_own', {
      to: appRole,
      for: 'all',
      using: sql`${t.userId} = ${currentUser}`,
      withCheck: sql`${t.userId} = ${currentUser}`,
    }),
  ],
).enableRLS();

/** A user's last position in an item (addWatchOld): playback resumes there. */
export const contentProgress = pgTable(
  'content_progress',
  {
    contentId: integer('content_id')
      .notNull()
      .references(() => contentItems.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    positionSec: integer('position_sec').notNull().default(0),
    durationSec: integer('duration_sec').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.contentId] }),
    pgPolicy('content_progress_own', {
      to: appRole,
      for: 'all',
      using: sql`${t.userId} = ${currentUser}`,
      withCheck: sql`${t.userId} = ${currentUser}`,
    }),
  ],
).enableRLS();
