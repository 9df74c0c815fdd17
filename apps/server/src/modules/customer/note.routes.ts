import {
  CODE,
  CUSTOMER_MSG,
  noteCancelConcernCall,
  noteConcernCall,
  noteDeleteCall,
  noteListCall,
  noteSaveCall,
} from '@dzy/shared';
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage } from '../../db/paging.js';
import { notes, users } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { agencyOf, requireEnterprise } from './customer.repo.js';

const NOTE_NOT_FOUND = '记事不存在或无权访问';

/** A note of the tenant on an enterprise the caller may see; anything else is a 404. */
async function requireNote(tx: Queryable, session: SessionCtx, id: number) {
  const [note] = await tx
    .select()
    .from(notes)
    .where(and(eq(notes.id, id), eq(notes.agencyId, agencyOf(session))));
  if (!note) throw new AppError(CODE.NOT_FOUND, NOTE_NOT_FOUND);
  await requireEnterprise(tx, session, note.enterpriseId);
  return note;
}

/** Notes on an enterprise (user/note/*): anyone who sees the enterprise reads and adds them. */
export const noteCalls: Served[] = [
  serve(noteSaveCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.enterpriseId);
    if (body.id) {
      const note = await requireNote(tx, session, body.id);
      if (note.enterpriseId !== e.id) throw new AppError(CODE.NOT_FOUND, NOTE_NOT_FOUND);
      if (note.userId !== session.userId) throw new AppError(CODE.NO_PERMISSION, '只能修改自己的记录');
      await tx.update(notes).set({ content: body.content }).where(eq(notes.id, note.id));
      await audit(tx, req, session, 'customer.note_update', `note:${note.id}`, { enterpriseId: e.id });
      return { id: note.id };
    }
    const [row] = await tx
      .insert(notes)
      .values({ agencyId, enterpriseId: e.id, userId: session.userId, content: body.content })
      .returning({ id: notes.id });
    if (!row) throw new Error('note insert returned nothing');
    await audit(tx, req, session, 'customer.note_create', `note:${row.id}`, { enterpriseId: e.id });
    return { id: row.id };
  }),

  serve(noteDeleteCall, async ({ body, session, tx, req }) => {
    const note = await requireNote(tx, session, body.id);
    if (note.userId !== session.userId && !session.isAdmin)
      throw new AppError(CODE.NO_PERMISSION, CUSTOMER_MSG.noteOwn);
    await tx.delete(notes).where(eq(notes.id, note.id));
    await audit(tx, req, session, 'customer.note_delete', `note:${note.id}`, {
      enterpriseId: note.enterpriseId,
      author: note.userId,
    });
    return null;
  }),

  serve(noteConcernCall, async ({ body, session, tx }) => {
    const note = await requireNote(tx, session, body.id);
    await tx.update(notes).set({ concern: true }).where(eq(notes.id, note.id));
    return null;
  }),

  serve(noteCancelConcernCall, async ({ body, session, tx }) => {
    const note = await requireNote(tx, session, body.id);
    await tx.update(notes).set({ concern: false }).where(eq(notes.id, note.id));
    return null;
  }),

  serve(noteListCall, async ({ body, session, tx }) => {
    const e = await requireEnterprise(tx, session, body.enterpriseId);
    const { pageNo, pageSize, cursor, ...filter } = body;
    const where = and(eq(notes.agencyId, e.agencyId), eq(notes.enterpriseId, e.id)) as SQL;
    // Concerned notes first, then newest: index notes_ent_concern_idx.
    const sort = { name: 'concern', keys: [notes.concern, notes.createdAt, notes.id], desc: true };
    const page = await listPage(
      tx,
      { from: sql`${notes}`, where, sort, ask: { pageNo, pageSize, cursor }, filter },
      (ids) =>
        tx
          .select({
            id: notes.id,
            content: notes.content,
            concern: notes.concern,
            userId: notes.userId,
            userName: users.hymc,
            phone: users.phone,
            createdAt: notes.createdAt,
          })
          .from(notes)
          .innerJoin(users, eq(users.id, notes.userId))
          .where(and(eq(notes.enterpriseId, e.id), inArray(notes.id, ids))),
    );
    return {
      ...page,
      list: page.list.map((r) => ({
        id: r.id,
        content: r.content,
        concern: r.concern,
        userId: r.userId,
        userName: r.userName || r.phone,
        mine: r.userId === session.userId,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }),
];
