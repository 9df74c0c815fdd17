import { boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import { organisations } from './org.js';
import { tenantPolicy } from './tenancy.js';
import { users } from './user.js';

/**
 * Messages to one user (foundation.md §3 News). msgStyleBig: 1 派工消息 dispatch, 2 系统提醒 reminder.
 * msgStyleSmall names the page the details link opens. Kept six months, then deleted by a daily job.
 */
export const messages = pgTable(
  'messages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    msgStyleBig: smallint('msg_style_big').notNull(),
    msgStyleSmall: text('msg_style_small').notNull(),
    content: text().notNull(),
    /** Id of the thing the message is about (an enterprise, a contract ...), for the details link. */
    targetId: integer('target_id'),
    /** Seen in the bell (marked known); the message centre still lists it. */
    known: boolean().notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('messages_user_style_created_idx').on(t.userId, t.msgStyleBig, t.createdAt, t.id),
    index('messages_created_idx').on(t.createdAt),
    tenantPolicy('messages_tenant', t.agencyId),
  ],
).enableRLS();

/** Per-user message settings (1 on, 0 off); a missing row means all on. */
export const messageSettings = pgTable(
  'message_settings',
  {
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    msgFp: smallint('msg_fp').notNull().default(1),
    msgXjht: smallint('msg_xjht').notNull().default(1),
    msgXjgd: smallint('msg_xjgd').notNull().default(1),
    msgSftx: smallint('msg_sftx').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.agencyId, t.userId] }), tenantPolicy('message_settings_tenant', t.agencyId)],
).enableRLS();

/** System announcements published by platform operators, to everyone or to one province. */
export const announcements = pgTable(
  'announcements',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    messageTitle: text('message_title').notNull(),
    /** Rich text; sanitised when published and again when shown. */
    messageInfo: text('message_info').notNull(),
    /** Province code (sssf) it is for; null for every agency. */
    sssf: text(),
    publisherId: integer('publisher_id').references(() => users.id),
    fbTime: timestamp('fb_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('announcements_fb_time_idx').on(t.fbTime, t.id)],
);

/** Incoming customer-service chat sessions. status: 1 received, 2 accepted, 3 refused. */
export const chatSessions = pgTable(
  'chat_sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    qysh: text().notNull().default(''),
    url: text().notNull().default(''),
    status: smallint().notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('chat_sessions_user_idx').on(t.userId, t.createdAt), tenantPolicy('chat_sessions_tenant', t.agencyId)],
).enableRLS();

/** The agency's hotline settings shown in the help panel (rxmc name, rxnr number or text). */
export const hotlines = pgTable(
  'hotlines',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    agencyId: integer('agency_id')
      .notNull()
      .references(() => organisations.id),
    rxmc: text().notNull(),
    rxnr: text().notNull(),
    sort: integer().notNull().default(0),
  },
  (t) => [index('hotlines_agency_idx').on(t.agencyId), tenantPolicy('hotlines_tenant', t.agencyId)],
).enableRLS();
