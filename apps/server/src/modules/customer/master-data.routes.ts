import {
  BUREAU_DIFF_FIELDS,
  bureauDiffCall,
  bureauFieldLabel,
  CODE,
  clearAgencyCacheCall,
  DEFAULT_PRINT_SETTINGS,
  defKpTypeCall,
  jglxBatchCall,
  jglxOneCall,
  kpfsBatchCall,
  kpfsLabel,
  kpfsOneCall,
  kpfsQueryCall,
  MASTER_MSG,
  noteGetStagingCall,
  noteStagingCall,
  printSettingsGetCall,
  printSettingsSaveCall,
  printSettingsSchema,
  profileSaveCall,
  qyxzText,
  takeBureauCall,
} from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  agencyClientSettings,
  type BureauDiffRow,
  enterpriseBureauDiffs,
  enterpriseProfiles,
  enterprises,
  noteDrafts,
  userLastQuery,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type Served, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { regionText } from '../org/regions.js';
import { agencyOf, requireEnterprise, requireEnterprises } from './customer.repo.js';

/** A six-digit district code as 省 市 区 in words (the code itself when unknown). */
const regionWords = (r: string) =>
  /^\d{6}$/.test(r) ? regionText(`${r.slice(0, 2)}0000`, `${r.slice(0, 4)}00`, r) || r : r;

const valueText = (field: string, v: string) =>
  field === 'qyxz' ? qyxzText(v) : field === 'region' ? regionWords(v) : v;

/** The differences in display order, with labels and words. */
export function diffItems(diffs: readonly BureauDiffRow[]) {
  const order = BUREAU_DIFF_FIELDS.map((f) => f.value as string);
  return [...diffs]
    .sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field))
    .map((d) => ({
      field: d.field,
      label: bureauFieldLabel(d.field),
      book: d.book,
      bureau: d.bureau,
      bookText: valueText(d.field, d.book),
      bureauText: valueText(d.field, d.bureau),
    }));
}

/** Upserts part of a client's profile row (the triggers of migration 0034 recompute its differences). */
async function setProfile(
  tx: Queryable,
  agencyId: number,
  ids: readonly number[],
  set: Partial<{ fddbrxm: string; taxTypes: string; kpfs: string; jglx: string }>,
) {
  if (ids.length === 0) return;
  await tx
    .insert(enterpriseProfiles)
    .values(ids.map((enterpriseId) => ({ agencyId, enterpriseId, ...set })))
    .onConflictDoUpdate({
      target: [enterpriseProfiles.agencyId, enterpriseProfiles.enterpriseId],
      set: { ...set, updatedAt: new Date() },
    });
}

async function profileOf(tx: Queryable, agencyId: number, id: number) {
  const [p] = await tx
    .select()
    .from(enterpriseProfiles)
    .where(and(eq(enterpriseProfiles.agencyId, agencyId), eq(enterpriseProfiles.enterpriseId, id)));
  return { fddbrxm: p?.fddbrxm ?? '', taxTypes: p?.taxTypes ?? '', kpfs: p?.kpfs ?? '', jglx: p?.jglx ?? '' };
}

async function diffOf(tx: Queryable, agencyId: number, id: number) {
  const [d] = await tx
    .select()
    .from(enterpriseBureauDiffs)
    .where(and(eq(enterpriseBureauDiffs.agencyId, agencyId), eq(enterpriseBureauDiffs.enterpriseId, id)));
  return d;
}

async function agencySettings(tx: Queryable, agencyId: number) {
  const [row] = await tx.select().from(agencyClientSettings).where(eq(agencyClientSettings.agencyId, agencyId));
  return row;
}

/**
 * The invoicing method that applies to each of these clients of an agency: its own, else the agency's
 * default ('' when neither is set). The invoices module reads it from here.
 */
export async function invoicingMethods(
  tx: Queryable,
  agencyId: number,
  ids: readonly number[],
): Promise<{ defKpfs: string; byId: Map<number, { own: string; effective: string }> }> {
  const defKpfs = (await agencySettings(tx, agencyId))?.defKpfs ?? '';
  const rows =
    ids.length === 0
      ? []
      : await tx
          .select({ id: enterpriseProfiles.enterpriseId, kpfs: enterpriseProfiles.kpfs })
          .from(enterpriseProfiles)
          .where(and(eq(enterpriseProfiles.agencyId, agencyId), inArray(enterpriseProfiles.enterpriseId, [...ids])));
  const own = new Map(rows.map((r) => [r.id, r.kpfs]));
  return {
    defKpfs,
    byId: new Map(ids.map((id) => [id, { own: own.get(id) ?? '', effective: own.get(id) || defKpfs }])),
  };
}

/** Client master data against the bureau, institution type, invoicing method, drafts, cache, print settings. */
export const masterDataCalls: Served[] = [
  serve(bureauDiffCall, async ({ body, session, tx }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.id);
    const d = await diffOf(tx, agencyId, e.id);
    return {
      checkedAt: d ? d.checkedAt.toISOString() : null,
      needUpdate: d?.needUpdate ?? false,
      diffs: d ? diffItems(d.diffs) : [],
      profile: await profileOf(tx, agencyId, e.id),
    };
  }),

  serve(profileSaveCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.id);
    await setProfile(tx, agencyId, [e.id], { fddbrxm: body.fddbrxm, taxTypes: body.taxTypes });
    await audit(tx, req, session, 'customer.profile_save', `enterprise:${e.id}`, {
      fddbrxm: body.fddbrxm,
      taxTypes: body.taxTypes,
    });
    return { needUpdate: (await diffOf(tx, agencyId, e.id))?.needUpdate ?? false };
  }),

  // 按税局信息更新: every listed difference takes the bureau's value; the triggers then clear the mark.
  serve(takeBureauCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const list = await requireEnterprises(tx, session, body.aeiIds);
    const marks = await tx
      .select()
      .from(enterpriseBureauDiffs)
      .where(
        and(
          eq(enterpriseBureauDiffs.agencyId, agencyId),
          inArray(
            enterpriseBureauDiffs.enterpriseId,
            list.map((e) => e.id),
          ),
          eq(enterpriseBureauDiffs.needUpdate, true),
        ),
      );
    if (marks.length === 0) throw new AppError(CODE.BAD_REQUEST, MASTER_MSG.nothingToTake);
    for (const m of marks) {
      const take = new Map(m.diffs.map((d) => [d.field, d.bureau]));
      const set: Partial<typeof enterprises.$inferInsert> = {};
      const name = take.get('qymc');
      if (name) set.qymc = name;
      const kind = take.get('qyxz');
      if (kind === '0' || kind === '1') set.qyxz = kind;
      const region = take.get('region');
      if (region && /^\d{6}$/.test(region)) {
        set.sssf = `${region.slice(0, 2)}0000`;
        set.ssds = `${region.slice(0, 4)}00`;
        set.ssqx = region;
      }
      if (Object.keys(set).length > 0) {
        await tx
          .update(enterprises)
          .set({ ...set, updatedAt: new Date() })
          .where(and(eq(enterprises.id, m.enterpriseId), eq(enterprises.agencyId, agencyId)));
      }
      const profile: { fddbrxm?: string; taxTypes?: string } = {};
      if (take.has('fddbrxm')) profile.fddbrxm = take.get('fddbrxm') ?? '';
      if (take.has('taxTypes')) profile.taxTypes = take.get('taxTypes') ?? '';
      if (Object.keys(profile).length > 0) await setProfile(tx, agencyId, [m.enterpriseId], profile);
      await audit(tx, req, session, 'customer.take_bureau', `enterprise:${m.enterpriseId}`, {
        diffs: m.diffs.map((d) => ({ field: d.field, from: d.book, to: d.bureau })),
      });
    }
    return { updated: marks.length, unchanged: list.length - marks.length };
  }),

  serve(jglxBatchCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const list = await requireEnterprises(tx, session, body.aeiIds);
    const ids = list.map((e) => e.id);
    await setProfile(tx, agencyId, ids, { jglx: body.jglx });
    await audit(tx, req, session, 'customer.jglx', `enterprises:${ids.length}`, { ids, jglx: body.jglx });
    return { updated: ids.length };
  }),

  serve(jglxOneCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.id);
    await setProfile(tx, agencyId, [e.id], { jglx: body.jglx });
    await audit(tx, req, session, 'customer.jglx', `enterprise:${e.id}`, { jglx: body.jglx });
    return { updated: 1 };
  }),

  serve(defKpTypeCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    await tx
      .insert(agencyClientSettings)
      .values({ agencyId, defKpfs: body.kpfs })
      .onConflictDoUpdate({
        target: agencyClientSettings.agencyId,
        set: { defKpfs: body.kpfs, updatedAt: new Date() },
      });
    await audit(tx, req, session, 'customer.def_kpfs', `agency:${agencyId}`, { kpfs: body.kpfs });
    return { kpfs: body.kpfs };
  }),

  serve(kpfsBatchCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const ids = (await requireEnterprises(tx, session, body.aeiIds)).map((e) => e.id);
    await setProfile(tx, agencyId, ids, { kpfs: body.kpfs });
    await audit(tx, req, session, 'customer.kpfs', `enterprises:${ids.length}`, { ids, kpfs: body.kpfs });
    return { updated: ids.length };
  }),

  serve(kpfsOneCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.id);
    await setProfile(tx, agencyId, [e.id], { kpfs: body.kpfs });
    await audit(tx, req, session, 'customer.kpfs', `enterprise:${e.id}`, { kpfs: body.kpfs });
    return { updated: 1 };
  }),

  serve(kpfsQueryCall, async ({ body, session, tx }) => {
    const agencyId = agencyOf(session);
    const list = await requireEnterprises(tx, session, body.aeiIds);
    const byInput = new Map(list.map((e) => [e.id, e]));
    const { defKpfs, byId } = await invoicingMethods(tx, agencyId, [...byInput.keys()]);
    return {
      defKpfs,
      list: [...new Set(body.aeiIds)].map((id) => {
        const m = byId.get(id) ?? { own: '', effective: defKpfs };
        return {
          id,
          qymc: byInput.get(id)?.qymc ?? '',
          kpfs: m.own,
          effective: m.effective,
          effectiveLabel: kpfsLabel(m.effective),
        };
      }),
    };
  }),

  serve(noteStagingCall, async ({ body, session, tx }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.enterpriseId);
    const mine = and(
      eq(noteDrafts.agencyId, agencyId),
      eq(noteDrafts.userId, session.userId),
      eq(noteDrafts.enterpriseId, e.id),
    );
    if (body.content.trim() === '') {
      await tx.delete(noteDrafts).where(mine);
      return { savedAt: null };
    }
    const at = new Date();
    await tx
      .insert(noteDrafts)
      .values({ agencyId, userId: session.userId, enterpriseId: e.id, content: body.content, updatedAt: at })
      .onConflictDoUpdate({
        target: [noteDrafts.agencyId, noteDrafts.userId, noteDrafts.enterpriseId],
        set: { content: body.content, updatedAt: at },
      });
    return { savedAt: at.toISOString() };
  }),

  serve(noteGetStagingCall, async ({ body, session, tx }) => {
    const agencyId = agencyOf(session);
    const e = await requireEnterprise(tx, session, body.enterpriseId);
    const [d] = await tx
      .select()
      .from(noteDrafts)
      .where(
        and(
          eq(noteDrafts.agencyId, agencyId),
          eq(noteDrafts.userId, session.userId),
          eq(noteDrafts.enterpriseId, e.id),
        ),
      );
    return { content: d?.content ?? '', savedAt: d ? d.updatedAt.toISOString() : null };
  }),

  // Nothing of the book is cached on the server: what a member can clear is their own remembered
  // filters (userLastQuery) and note drafts; the web client drops its own caches with it.
  serve(clearAgencyCacheCall, async ({ session, tx, req }) => {
    const agencyId = agencyOf(session);
    const q = await tx
      .delete(userLastQuery)
      .where(and(eq(userLastQuery.agencyId, agencyId), eq(userLastQuery.userId, session.userId)))
      .returning({ userId: userLastQuery.userId });
    const d = await tx
      .delete(noteDrafts)
      .where(and(eq(noteDrafts.agencyId, agencyId), eq(noteDrafts.userId, session.userId)))
      .returning({ userId: noteDrafts.userId });
    await audit(tx, req, session, 'customer.clear_cache', `user:${session.userId}`, {
      queries: q.length,
      drafts: d.length,
    });
    return { cleared: q.length + d.length };
  }),

  serve(printSettingsGetCall, async ({ session, tx }) => {
    const row = await agencySettings(tx, agencyOf(session));
    const parsed = printSettingsSchema.safeParse({ ...DEFAULT_PRINT_SETTINGS, ...(row?.printSettings ?? {}) });
    return parsed.success ? parsed.data : DEFAULT_PRINT_SETTINGS;
  }),

  serve(printSettingsSaveCall, async ({ body, session, tx, req }) => {
    const agencyId = agencyOf(session);
    await tx
      .insert(agencyClientSettings)
      .values({ agencyId, printSettings: body })
      .onConflictDoUpdate({
        target: agencyClientSettings.agencyId,
        set: { printSettings: body, updatedAt: new Date() },
      });
    await audit(tx, req, session, 'customer.print_settings', `agency:${agencyId}`, { ...body });
    return body;
  }),
];
