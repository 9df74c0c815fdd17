import { CODE, fenToYuan, TEMPLATE_MSG } from '@dzy/shared';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { contractTemplateLines, contractTemplates, serviceItems } from '../../db/schema/index.js';
import { AppError } from '../../plugins/errors.js';
import { isUniqueViolation } from '../role/member.repo.js';
import { requireTemplate } from './contract-template.repo.js';

/** A template line checked and in fen. */
export interface LineFen {
  serviceId: number;
  isGive: 0 | 1;
  priceFen: number;
  discountFen: number;
}

export interface TemplateInput {
  tempName: string;
  tempIllustration: string;
  lines: readonly LineFen[];
}

export const nowPriceFen = (l: LineFen) => l.priceFen - l.discountFen;
export const totalFen = (lines: readonly LineFen[]) => lines.reduce((sum, l) => sum + nowPriceFen(l), 0);

/**
 * The services of a template's lines must be the agency's and enabled; a disabled one is kept only
 * when the template being edited already has it (so an old template can still be saved).
 */
export async function checkServices(
  tx: Queryable,
  agencyId: number,
  serviceIds: readonly number[],
  keep: ReadonlySet<number> = new Set(),
) {
  const ids = [...new Set(serviceIds)];
  const rows = await tx
    .select({ id: serviceItems.id, serviceStatic: serviceItems.serviceStatic })
    .from(serviceItems)
    .where(and(eq(serviceItems.agencyId, agencyId), inArray(serviceItems.id, ids)));
  const ok = new Set(rows.filter((r) => r.serviceStatic === '1' || keep.has(r.id)).map((r) => r.id));
  if (ids.some((id) => !ok.has(id))) throw new AppError(CODE.BAD_REQUEST, TEMPLATE_MSG.serviceUnknown);
}

/** The service ids a template has now. */
export async function serviceIdsOf(tx: Queryable, agencyId: number, templateId: number): Promise<Set<number>> {
  const rows = await tx
    .select({ id: contractTemplateLines.serviceId })
    .from(contractTemplateLines)
    .where(and(eq(contractTemplateLines.agencyId, agencyId), eq(contractTemplateLines.templateId, templateId)));
  return new Set(rows.map((r) => r.id));
}

export async function assertNameFree(tx: Queryable, agencyId: number, tempName: string, exceptId?: number) {
  const [hit] = await tx
    .select({ id: contractTemplates.id })
    .from(contractTemplates)
    .where(
      and(
        eq(contractTemplates.agencyId, agencyId),
        eq(contractTemplates.tempName, tempName),
        exceptId === undefined ? undefined : ne(contractTemplates.id, exceptId),
      ),
    );
  if (hit) throw new AppError(CODE.CONFLICT, TEMPLATE_MSG.nameTaken);
}

const lineRows = (agencyId: number, templateId: number, lines: readonly LineFen[]) =>
  lines.map((l, i) => ({
    agencyId,
    templateId,
    sort: i + 1,
    serviceId: l.serviceId,
    isGive: l.isGive,
    priceFen: l.priceFen,
    discountFen: l.discountFen,
    nowPriceFen: nowPriceFen(l),
  }));

/**
 * Writes a template (new when id is undefined) with its lines in the given order; the total is the
 * sum of the lines' now prices, computed here. Checks of services and name are the caller's.
 */
export async function writeTemplate(
  tx: Queryable,
  agencyId: number,
  userId: number,
  input: TemplateInput,
  id?: number,
): Promise<{ id: number; totalFen: number }> {
  const total = totalFen(input.lines);
  let templateId: number;
  try {
    if (id === undefined) {
      const [row] = await tx
        .insert(contractTemplates)
        .values({
          agencyId,
          tempName: input.tempName,
          tempIllustration: input.tempIllustration,
          tempTotalPriceFen: total,
          createdBy: userId,
        })
        .returning({ id: contractTemplates.id });
      if (!row) throw new Error('template insert returned nothing');
      templateId = row.id;
    } else {
      await tx
        .update(contractTemplates)
        .set({
          tempName: input.tempName,
          tempIllustration: input.tempIllustration,
          tempTotalPriceFen: total,
          updatedAt: new Date(),
        })
        .where(and(eq(contractTemplates.id, id), eq(contractTemplates.agencyId, agencyId)));
      await tx
        .delete(contractTemplateLines)
        .where(and(eq(contractTemplateLines.agencyId, agencyId), eq(contractTemplateLines.templateId, id)));
      templateId = id;
    }
  } catch (err) {
    // Two saves of the same name at once: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, TEMPLATE_MSG.nameTaken);
    throw err;
  }
  await tx.insert(contractTemplateLines).values(lineRows(agencyId, templateId, input.lines));
  return { id: templateId, totalFen: total };
}

/** The template as the audit log keeps it: enough to tell what the money was before and after. */
export async function templateSnapshot(tx: Queryable, agencyId: number, id: number) {
  const row = await requireTemplate(tx, agencyId, id);
  const lines = await tx
    .select({
      serviceId: contractTemplateLines.serviceId,
      isGive: contractTemplateLines.isGive,
      priceFen: contractTemplateLines.priceFen,
      discountFen: contractTemplateLines.discountFen,
    })
    .from(contractTemplateLines)
    .where(and(eq(contractTemplateLines.agencyId, agencyId), eq(contractTemplateLines.templateId, id)))
    .orderBy(contractTemplateLines.sort);
  return { tempName: row.tempName, total: fenToYuan(row.tempTotalPriceFen), lines };
}

/** Bulk write for the import: new templates inserted, existing ones (same name) updated, lines replaced. */
export async function writeTemplatesBulk(
  tx: Queryable,
  agencyId: number,
  userId: number,
  items: readonly (TemplateInput & { existingId?: number })[],
) {
  const fresh = items.filter((i) => i.existingId === undefined);
  const old = items.filter((i) => i.existingId !== undefined);
  const allLines: ReturnType<typeof lineRows> = [];
  for (let i = 0; i < fresh.length; i += 500) {
    const chunk = fresh.slice(i, i + 500);
    const rows = await tx
      .insert(contractTemplates)
      .values(
        chunk.map((t) => ({
          agencyId,
          tempName: t.tempName,
          tempIllustration: t.tempIllustration,
          tempTotalPriceFen: totalFen(t.lines),
          createdBy: userId,
        })),
      )
      .returning({ id: contractTemplates.id, tempName: contractTemplates.tempName });
    const byName = new Map(rows.map((r) => [r.tempName, r.id]));
    for (const t of chunk) {
      const id = byName.get(t.tempName);
      if (id === undefined) throw new Error(`template ${t.tempName} not inserted`);
      allLines.push(...lineRows(agencyId, id, t.lines));
    }
  }
  for (const t of old) {
    const id = t.existingId as number;
    await tx
      .update(contractTemplates)
      .set({ tempIllustration: t.tempIllustration, tempTotalPriceFen: totalFen(t.lines), updatedAt: new Date() })
      .where(and(eq(contractTemplates.id, id), eq(contractTemplates.agencyId, agencyId)));
    allLines.push(...lineRows(agencyId, id, t.lines));
  }
  const oldIds = old.map((t) => t.existingId as number);
  for (let i = 0; i < oldIds.length; i += 1000) {
    await tx
      .delete(contractTemplateLines)
      .where(
        and(
          eq(contractTemplateLines.agencyId, agencyId),
          inArray(contractTemplateLines.templateId, oldIds.slice(i, i + 1000)),
        ),
      );
  }
  for (let i = 0; i < allLines.length; i += 1000) {
    await tx.insert(contractTemplateLines).values(allLines.slice(i, i + 1000));
  }
}
