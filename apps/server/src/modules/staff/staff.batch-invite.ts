import {
  ACCEPT_INVITE_PATH,
  CODE,
  checkMobile,
  copyCommandCall,
  INVITE_STATUS,
  INVITE_VALID_DAYS,
  saveAgencyInviteListCall,
} from '@dzy/shared';
import { and, eq } from 'drizzle-orm';
import { invites } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { agencyPlace, inviteOne } from './invite.routes.js';

/** Issue 19 point 3: batch invitations with a result per phone, and the copy-invite-link text. */
export const batchInviteCalls: Served[] = [
  serve(saveAgencyInviteListCall, async (c) => {
    const { body, tx, session, req } = c;
    agencyPlace(session);
    const seen = new Set<string>();
    const results: { sjh: string; hymc: string; ok: boolean; msg: string; id: number | null }[] = [];
    for (const row of body.list) {
      const hymc = row.hymc ?? '';
      const answer = (ok: boolean, msg: string, id: number | null = null) =>
        results.push({ sjh: row.sjh, hymc, ok, msg, id });
      const bad = checkMobile(row.sjh);
      if (bad) {
        answer(false, bad);
        continue;
      }
      if (seen.has(row.sjh)) {
        answer(false, '名单中重复的手机号');
        continue;
      }
      seen.add(row.sjh);
      try {
        // Each invitation in its own savepoint: one refused phone leaves the others sent.
        const made = await tx.transaction((sp) =>
          inviteOne(
            { ...c, tx: sp },
            { sjh: row.sjh, hymc: row.hymc, role: body.role, departmentId: body.departmentId },
          ),
        );
        answer(true, '已发送邀请', made.id);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        // A department of another agency refuses the whole batch, as the single invitation does.
        if (err.code === CODE.NOT_FOUND) throw err;
        answer(false, err.message);
      }
    }
    const sent = results.filter((r) => r.ok).length;
    await audit(tx, req, session, 'staff.invite_batch', `rows:${results.length}`, {
      sent,
      failed: results.length - sent,
      role: body.role,
      departmentId: body.departmentId ?? null,
    });
    return { sent, failed: results.length - sent, results };
  }),

  serve(copyCommandCall, async ({ body, session, tx, deps }) => {
    const place = agencyPlace(session);
    const [row] = await tx
      .select()
      .from(invites)
      .where(and(eq(invites.id, body.id), eq(invites.agencyId, place.agencyId)))
      .limit(1);
    if (!row) throw new AppError(CODE.NOT_FOUND, '邀请记录不存在');
    if (row.status !== INVITE_STATUS.pending || row.expiresAt.getTime() <= Date.now()) {
      throw new AppError(CODE.CONFLICT, '只能复制待接受的邀请，请重新邀请');
    }
    // PUBLIC_URL only, never the request's Host (invite.routes.ts).
    const link = `${deps.config.publicUrl}/#${ACCEPT_INVITE_PATH}?id=${row.id}`;
    const who = row.hymc ? `${row.hymc}，` : '';
    const expires = row.expiresAt.toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' });
    const text =
      `${who}${session.hymc || '管理员'}邀请您加入「${session.orgName ?? ''}」，请使用手机号${row.phone}登录代账云后打开链接接受邀请` +
      `（${INVITE_VALID_DAYS}天内有效，至${expires}）：${link}`;
    return { text, link };
  }),
];
