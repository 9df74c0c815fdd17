import {
  BRAND_MSG,
  brandAssignCall,
  brandDeleteCall,
  brandListCall,
  brandSaveCall,
  CODE,
  getZtByFwsidCall,
  urlAndJsConfigCall,
} from '@dzy/shared';
import { and, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { listPage } from '../../db/paging.js';
import { agencyAccounts, organisations, serviceProviders } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { requireOperator } from '../message/announcement.routes.js';
import { availableProviders } from '../third-login/providers.js';
import { brandFileRoutes, removeBrandFile } from './brand.files.js';
import { brandByFwsid, brandOfAgency, logoUrl } from './brand.service.js';

/** The platform's own hotline, shown when no provider brand applies. */
export const PLATFORM_HOTLINE = '400-800-2026';

const ORDER = { name: 'id', keys: [serviceProviders.id], desc: true };
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** True when the error is a unique violation of the named index. */
const isUnique = (err: unknown, index: string) => {
  for (
    let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23505') return e.constraint === undefined || e.constraint === index;
  }
  return false;
};

export const brandCalls = [
  serve(getZtByFwsidCall, async ({ body, session, tx }) => {
    if (body.fwsid) return brandByFwsid(tx, body.fwsid);
    return session?.agencyId ? brandOfAgency(tx, session.agencyId) : null;
  }),

  serve(urlAndJsConfigCall, async ({ body, session, tx, deps }) => {
    const brand = body.fwsid
      ? await brandByFwsid(tx, body.fwsid)
      : session?.agencyId
        ? await brandOfAgency(tx, session.agencyId)
        : null;
    return {
      brand,
      hotline: brand?.hotline || PLATFORM_HOTLINE,
      agreementUrl: '/#/agreement',
      privacyUrl: '/#/privacy',
      thirdProviders: availableProviders(deps.config).map((p) => ({ id: p.id, label: p.label })),
    };
  }),

  serve(brandListCall, async ({ body, session, tx }) => {
    requireOperator(session);
    const { pageNo, pageSize, cursor, keyword } = body;
    const conds: SQL[] = [];
    if (keyword) {
      const k = contains(keyword.toLowerCase());
      conds.push(or(ilike(serviceProviders.fwsid, k), ilike(serviceProviders.name, contains(keyword))) as SQL);
    }
    const where = (conds.length ? and(...conds) : sql`true`) as SQL;
    const page = await listPage(
      tx,
      { from: sql`${serviceProviders}`, where, sort: ORDER, ask: { pageNo, pageSize, cursor }, filter: { keyword } },
      (ids) => tx.select().from(serviceProviders).where(inArray(serviceProviders.id, ids)),
    );
    const ids = page.list.map((r) => r.id);
    const counts = ids.length
      ? await tx
          .select({ id: agencyAccounts.providerId, n: sql<number>`count(*)::int` })
          .from(agencyAccounts)
          .where(inArray(agencyAccounts.providerId, ids))
          .groupBy(agencyAccounts.providerId)
      : [];
    const countOf = new Map(counts.map((c) => [c.id, Number(c.n)]));
    return {
      ...page,
      list: page.list.map((r) => ({
        id: r.id,
        fwsid: r.fwsid,
        name: r.name,
        logoFile: r.logoFile,
        logoUrl: logoUrl(r.logoFile),
        primaryColor: r.primaryColor,
        loginTitle: r.loginTitle,
        hotline: r.hotline,
        enabled: r.enabled,
        agencyCount: countOf.get(r.id) ?? 0,
        updatedAt: r.updatedAt.toISOString(),
      })),
    };
  }),

  serve(brandSaveCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const { id, ...values } = body;
    const [taken] = await tx
      .select({ id: serviceProviders.id })
      .from(serviceProviders)
      .where(eq(serviceProviders.fwsid, values.fwsid));
    if (taken && taken.id !== id) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.fwsidTaken);
    try {
      if (id === undefined) {
        const [row] = await tx.insert(serviceProviders).values(values).returning({ id: serviceProviders.id });
        if (!row) throw new Error('provider insert returned nothing');
        await audit(tx, req, session, 'brand.create', values.fwsid, { name: values.name });
        return { id: row.id };
      }
      const [old] = await tx.select().from(serviceProviders).where(eq(serviceProviders.id, id));
      if (!old) throw new AppError(CODE.NOT_FOUND, BRAND_MSG.notFound);
      await tx
        .update(serviceProviders)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(serviceProviders.id, id));
      if (old.logoFile && old.logoFile !== values.logoFile) await removeBrandFile(deps, old.logoFile);
      await audit(tx, req, session, 'brand.update', values.fwsid, { name: values.name, enabled: values.enabled });
      return { id };
    } catch (err) {
      if (isUnique(err, 'service_providers_fwsid_uq')) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.fwsidTaken);
      throw err;
    }
  }),

  serve(brandDeleteCall, async ({ body, session, tx, req, deps }) => {
    requireOperator(session);
    const [used] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(agencyAccounts)
      .where(eq(agencyAccounts.providerId, body.id));
    const n = Number(used?.n ?? 0);
    const [exists] = await tx
      .select({ id: serviceProviders.id })
      .from(serviceProviders)
      .where(eq(serviceProviders.id, body.id));
    if (!exists) throw new AppError(CODE.NOT_FOUND, BRAND_MSG.notFound);
    if (n > 0) throw new AppError(CODE.BAD_REQUEST, BRAND_MSG.inUse(n));
    const [row] = await tx.delete(serviceProviders).where(eq(serviceProviders.id, body.id)).returning();
    if (!row) throw new AppError(CODE.NOT_FOUND, BRAND_MSG.notFound);
    if (row.logoFile) await removeBrandFile(deps, row.logoFile);
    await audit(tx, req, session, 'brand.delete', row.fwsid, { name: row.name });
    return null;
  }),

  serve(brandAssignCall, async ({ body, session, tx, req }) => {
    requireOperator(session);
    const [org] = await tx
      .select({ id: organisations.id, orgType: organisations.orgType })
      .from(organisations)
      .where(eq(organisations.id, body.agencyId));
    if (!org || org.orgType === 'kjgc') throw new AppError(CODE.NOT_FOUND, BRAND_MSG.agencyNotFound);
    if (body.providerId !== null) {
      const [p] = await tx
        .select({ id: serviceProviders.id })
        .from(serviceProviders)
        .where(eq(serviceProviders.id, body.providerId));
      if (!p) throw new AppError(CODE.NOT_FOUND, BRAND_MSG.notFound);
    }
    await tx
      .insert(agencyAccounts)
      .values({ agencyId: body.agencyId, providerId: body.providerId })
      .onConflictDoUpdate({
        target: agencyAccounts.agencyId,
        set: { providerId: body.providerId, updatedAt: new Date() },
      });
    await audit(tx, req, session, 'brand.assign', `agency:${body.agencyId}`, { providerId: body.providerId });
    return null;
  }),
];

export const brandModule: ServerModule = {
  name: 'brand',
  calls: brandCalls,
  routes: brandFileRoutes,
};
