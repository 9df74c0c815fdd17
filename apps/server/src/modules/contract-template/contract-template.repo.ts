import {
  CODE,
  fenToYuan,
  SERVICE_MSG,
  type ServiceItem,
  TEMPLATE_MSG,
  type TemplateDetail,
  type TemplateItem,
  type TemplateLine,
} from '@dzy/shared';
import { and, asc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import { contractTemplateLines, contractTemplates, serviceItems } from '../../db/schema/index.js';
import { likeTerm } from '../../lib/search.js';
import { AppError } from '../../plugins/errors.js';

type ServiceRow = typeof serviceItems.$inferSelect;
type TemplateRow = typeof contractTemplates.$inferSelect;

export const serviceItemOut = (r: ServiceRow): ServiceItem => ({
  id: r.id,
  serviceName: r.serviceName,
  serviceBriName: r.serviceBriName,
  jobType: r.jobType,
  price: fenToYuan(r.priceFen),
  service_static: r.serviceStatic,
  sort: r.sort,
});

/** A service item of the agency, or 404 (another agency's id is never told apart from a missing one). */
export async function requireServiceItem(tx: Queryable, agencyId: number, id: number): Promise<ServiceRow> {
  const [row] = await tx
    .select()
    .from(serviceItems)
    .where(and(eq(serviceItems.id, id), eq(serviceItems.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, SERVICE_MSG.notFound);
  return row;
}

/** A template of the agency, or 404. */
export async function requireTemplate(tx: Queryable, agencyId: number, id: number): Promise<TemplateRow> {
  const [row] = await tx
    .select()
    .from(contractTemplates)
    .where(and(eq(contractTemplates.id, id), eq(contractTemplates.agencyId, agencyId)));
  if (!row) throw new AppError(CODE.NOT_FOUND, TEMPLATE_MSG.notFound);
  return row;
}

/** The lines of the given templates in order, with the service item's names and job type. */
export async function linesOf(tx: Queryable, agencyId: number, templateIds: readonly number[]) {
  const out = new Map<number, TemplateLine[]>();
  if (templateIds.length === 0) return out;
  const rows = await tx
    .select({
      templateId: contractTemplateLines.templateId,
      service: contractTemplateLines.serviceId,
      serviceName: serviceItems.serviceName,
      serviceBriName: serviceItems.serviceBriName,
      jobType: serviceItems.jobType,
      isGive: contractTemplateLines.isGive,
      priceFen: contractTemplateLines.priceFen,
      discountFen: contractTemplateLines.discountFen,
      nowPriceFen: contractTemplateLines.nowPriceFen,
    })
    .from(contractTemplateLines)
    .innerJoin(serviceItems, eq(serviceItems.id, contractTemplateLines.serviceId))
    .where(
      and(eq(contractTemplateLines.agencyId, agencyId), inArray(contractTemplateLines.templateId, [...templateIds])),
    )
    .orderBy(asc(contractTemplateLines.templateId), asc(contractTemplateLines.sort), asc(contractTemplateLines.id));
  for (const r of rows) {
    const list = out.get(r.templateId) ?? [];
    list.push({
      service: r.service,
      serviceName: r.serviceName,
      serviceBriName: r.serviceBriName,
      jobType: r.jobType,
      isGive: r.isGive === 1 ? 1 : 0,
      price: fenToYuan(r.priceFen),
      discount: fenToYuan(r.discountFen),
      nowPrice: fenToYuan(r.nowPriceFen),
    });
    out.set(r.templateId, list);
  }
  return out;
}

export function templateOut(r: TemplateRow, lines: readonly TemplateLine[]): TemplateItem {
  return {
    id: r.id,
    tempName: r.tempName,
    tempIllustration: r.tempIllustration,
    tempTotalPrice: fenToYuan(r.tempTotalPriceFen),
    tempServName: lines.map((l) => l.serviceName).join(','),
    jobTypeList: lines.map((l) => l.jobType).join(','),
    tempStatic: r.tempStatic,
    isVerifySet: r.isVerifySet,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Templates as list items, lines read in one query. */
export async function templateItems(tx: Queryable, agencyId: number, rows: readonly TemplateRow[]) {
  const lines = await linesOf(
    tx,
    agencyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => templateOut(r, lines.get(r.id) ?? []));
}

export async function templateDetail(tx: Queryable, agencyId: number, id: number): Promise<TemplateDetail> {
  const row = await requireTemplate(tx, agencyId, id);
  const lines = (await linesOf(tx, agencyId, [id])).get(id) ?? [];
  return { ...templateOut(row, lines), tempDetailList: lines };
}

/** One page of the template list, newest first (the call and the bench run this same code). */
export async function templatePage(
  tx: Queryable,
  agencyId: number,
  body: { pageNo: number; pageSize: number; cursor?: string | undefined; tempName: string },
) {
  const { pageNo, pageSize, cursor, ...filter } = body;
  const where = and(
    eq(contractTemplates.agencyId, agencyId),
    body.tempName ? ilike(contractTemplates.tempName, likeTerm(body.tempName)) : undefined,
  ) as SQL;
  const sort: Sort = { name: 'created', keys: [contractTemplates.createdAt, contractTemplates.id], desc: true };
  const page = await listPage(
    tx,
    { from: sql`${contractTemplates}`, where, sort, ask: { pageNo, pageSize, cursor }, filter },
    async (ids) =>
      templateItems(
        tx,
        agencyId,
        await tx
          .select()
          .from(contractTemplates)
          .where(and(eq(contractTemplates.agencyId, agencyId), inArray(contractTemplates.id, ids))),
      ),
  );
  // The spec gives the total as a string.
  return { ...page, total: String(page.total) };
}
