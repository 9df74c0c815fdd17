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
import { enterpriseContacts, memberships, phoneSettings } from '../../db/schema/index.js';
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

/** A mobile as phoneViewer masks it (138****8000). */
export const MASKED_MOBILE = /^1\d{2}\*{4}\d{4}$/;

/**
 * Contacts about to be saved, with every masked mobile replaced by the stored number it stands for (the
 * same contact by name first, else the one stored number of that shape). A masked value that matches
 * nothing stored (a new contact, or a client being created) is refused: the real number is not known.
 */
export async function unmaskContacts<C extends { name: string; mobile: string }>(
  tx: Queryable,
  enterpriseId: number | null,
  contacts: C[],
): Promise<C[]> {
  if (!contacts.some((c) => MASKED_MOBILE.test(c.mobile))) return contacts;
  const stored =
    enterpriseId === null
      ? []
      : await tx
          .select({ name: enterpriseContacts.name, mobile: enterpriseContacts.mobile })
          .from(enterpriseContacts)
          .where(eq(enterpriseContacts.enterpriseId, enterpriseId));
  return contacts.map((c) => {
    if (!MASKED_MOBILE.test(c.mobile)) return c;
    const same = stored.filter((s) => s.mobile && maskStaffPhone(s.mobile) === c.mobile);
    const numbers = new Set(same.map((s) => s.mobile));
    const hit = same.find((s) => s.name === c.name)?.mobile ?? (numbers.size === 1 ? same[0]?.mobile : undefined);
    if (!hit) throw new AppError(CODE.BAD_REQUEST, `联系人${c.name}：请填写完整的手机号`);
    return { ...c, mobile: hit };
  });
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
