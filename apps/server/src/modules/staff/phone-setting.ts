import {
  CODE,
  DEFAULT_PHONE_SETTING,
  getPhoneSettingInfoCall,
  maskStaffPhone,
  type PhoneSetting,
  savePhoneSettingCall,
} from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { memberships, phoneSettings } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import type { SessionCtx } from '../../plugins/session.js';
import { placeOf } from './staff.service.js';

/** The agency's phone setting, or the default (today's behaviour) when none was saved. */
export async function phoneSettingOf(tx: Queryable, agencyId: number): Promise<PhoneSetting> {
  const [row] = await tx.select().from(phoneSettings).where(eq(phoneSettings.agencyId, agencyId)).limit(1);
  if (!row) return { ...DEFAULT_PHONE_SETTING, userIds: [] };
  return { staffPhone: row.staffPhone, clientPhone: row.clientPhone, userIds: row.userIds };
}

/**
 * How the caller sees phone numbers: `staff(userId, phone)` for colleagues (one's own always in full),
 * `client(phone)` for client contacts. The administrator and the members the setting names see every
 * number in full; others see full numbers only where the setting says 'all'.
 */
export async function phoneViewer(tx: Queryable, session: SessionCtx) {
  const full = { staff: (_: number, p: string) => p, client: (p: string) => p };
  if (session.agencyId === null || session.isAdmin) return full;
  const s = await phoneSettingOf(tx, session.agencyId);
  const listed = s.userIds.includes(session.userId);
  return {
    staff: (userId: number, p: string) =>
      listed || s.staffPhone === 'all' || userId === session.userId ? p : maskStaffPhone(p),
    client: (p: string) => (listed || s.clientPhone === 'all' || !/^1\d{10}$/.test(p) ? p : maskStaffPhone(p)),
  };
}

export const phoneSettingCalls: Served[] = [
  serve(getPhoneSettingInfoCall, async ({ session, tx }) => {
    const place = placeOf(session);
    return { ...(await phoneSettingOf(tx, place.agencyId)), editable: session.isAdmin };
  }),

  serve(savePhoneSettingCall, async ({ body, session, tx, req }) => {
    const place = placeOf(session);
    const userIds = [...new Set(body.userIds)].sort((a, b) => a - b);
    if (userIds.length) {
      const found = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.agencyId, place.agencyId), inArray(memberships.userId, userIds)));
      const known = new Set(found.map((f) => f.userId));
      if (userIds.some((id) => !known.has(id))) throw new AppError(CODE.NOT_FOUND, '员工不存在或不属于本机构');
    }
    const value = { staffPhone: body.staffPhone, clientPhone: body.clientPhone, userIds };
    await tx
      .insert(phoneSettings)
      .values({ agencyId: place.agencyId, ...value })
      .onConflictDoUpdate({ target: phoneSettings.agencyId, set: { ...value, updatedAt: new Date() } });
    await audit(tx, req, session, 'staff.phone_setting', `agency:${place.agencyId}`, value);
    return value;
  }),
];
