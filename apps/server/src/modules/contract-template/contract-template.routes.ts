import {
  AMOUNT_RE,
  CODE,
  fenToYuan,
  hasPerm,
  MSG,
  SERVICE_MSG,
  selectTemplateByIdCall,
  selectTemplateByIdV2Call,
  selectTemplateListCall,
  serviceItemListCall,
  serviceItemSaveCall,
  serviceItemStaticCall,
  TEMPLATE_MSG,
  templateDeleteCall,
  templatePageCall,
  templateSaveCall,
  templateStaticCall,
  templateVerifySetCall,
  yuanToFen,
} from '@dzy/shared';
import { and, asc, eq, ilike } from 'drizzle-orm';
import { contractTemplates, serviceItems } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { likeTerm } from '../../lib/search.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { isUniqueViolation, tenantOf } from '../role/member.repo.js';
import { contractTemplateFileRoutes } from './contract-template.files.js';
import {
  requireServiceItem,
  requireTemplate,
  serviceItemOut,
  templateDetail,
  templateItems,
  templatePage,
} from './contract-template.repo.js';
import {
  assertNameFree,
  checkServices,
  serviceIdsOf,
  templateSnapshot,
  totalFen,
  writeTemplate,
} from './contract-template.service.js';

const serviceList = serve(serviceItemListCall, async ({ body, session, tx }) => {
  const agencyId = tenantOf(session);
  const rows = await tx
    .select()
    .from(serviceItems)
    .where(
      and(
        eq(serviceItems.agencyId, agencyId),
        body.service_static ? eq(serviceItems.serviceStatic, body.service_static) : undefined,
        body.service_name ? ilike(serviceItems.serviceName, likeTerm(body.service_name)) : undefined,
      ),
    )
    .orderBy(asc(serviceItems.sort), asc(serviceItems.id));
  return { list: rows.map(serviceItemOut), total: rows.length };
});

const serviceSave = serve(serviceItemSaveCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const values = {
    serviceName: body.serviceName,
    serviceBriName: body.serviceBriName,
    jobType: body.jobType,
    priceFen: yuanToFen(body.price),
    serviceStatic: body.service_static,
    sort: body.sort,
  };
  try {
    if (body.id === undefined) {
      const [row] = await tx
        .insert(serviceItems)
        .values({ agencyId, ...values })
        .returning({ id: serviceItems.id });
      if (!row) throw new Error('service item insert returned nothing');
      await audit(tx, req, session, 'service_item.add', `service_item:${row.id}`, { ...values, price: body.price });
      return { id: row.id };
    }
    const before = await requireServiceItem(tx, agencyId, body.id);
    await tx
      .update(serviceItems)
      .set(values)
      .where(and(eq(serviceItems.id, body.id), eq(serviceItems.agencyId, agencyId)));
    await audit(tx, req, session, 'service_item.edit', `service_item:${body.id}`, {
      before: { ...serviceItemOut(before) },
      after: { ...values, price: body.price },
    });
    return { id: body.id };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, SERVICE_MSG.nameTaken);
    throw err;
  }
});

const serviceStatic = serve(serviceItemStaticCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  await requireServiceItem(tx, agencyId, body.id);
  await tx
    .update(serviceItems)
    .set({ serviceStatic: body.service_static })
    .where(and(eq(serviceItems.id, body.id), eq(serviceItems.agencyId, agencyId)));
  await audit(tx, req, session, 'service_item.static', `service_item:${body.id}`, {
    service_static: body.service_static,
  });
  return null;
});

const templatePageServed = serve(templatePageCall, ({ body, session, tx }) =>
  templatePage(tx, tenantOf(session), body),
);

const templateList = serve(selectTemplateListCall, async ({ body, session, tx }) => {
  const agencyId = tenantOf(session);
  const rows = await tx
    .select()
    .from(contractTemplates)
    .where(
      and(
        eq(contractTemplates.agencyId, agencyId),
        eq(contractTemplates.tempStatic, '1'),
        body.tempName ? ilike(contractTemplates.tempName, likeTerm(body.tempName)) : undefined,
      ),
    )
    .orderBy(asc(contractTemplates.tempName))
    .limit(500);
  return templateItems(tx, agencyId, rows);
});

const templateById = serve(selectTemplateByIdCall, ({ body, session, tx }) =>
  templateDetail(tx, tenantOf(session), body.id),
);
const templateByIdV2 = serve(selectTemplateByIdV2Call, ({ body, session, tx }) =>
  templateDetail(tx, tenantOf(session), body.id),
);

const templateSave = serve(templateSaveCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const editing = body.id !== undefined;
  // 239 add, 241 edit (business.md §6), enforced here as the buttons are on the page.
  if (!hasPerm(session.perms, editing ? 'contract:template:edit' : 'contract:template:add')) {
    throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  }
  const lines = body.tempDetailList.map((l) => ({
    serviceId: l.service,
    isGive: l.isGive,
    priceFen: yuanToFen(l.price),
    discountFen: yuanToFen(l.discount),
  }));
  const total = totalFen(lines);
  if (
    body.tempTotalPrice !== undefined &&
    (!AMOUNT_RE.test(body.tempTotalPrice) || yuanToFen(body.tempTotalPrice) !== total)
  ) {
    throw new AppError(CODE.BAD_REQUEST, TEMPLATE_MSG.totalMismatch);
  }
  let before: Awaited<ReturnType<typeof templateSnapshot>> | null = null;
  let keep = new Set<number>();
  if (body.id !== undefined) {
    before = await templateSnapshot(tx, agencyId, body.id);
    keep = await serviceIdsOf(tx, agencyId, body.id);
  }
  await assertNameFree(tx, agencyId, body.tempName, body.id);
  await checkServices(
    tx,
    agencyId,
    lines.map((l) => l.serviceId),
    keep,
  );
  const input = { tempName: body.tempName, tempIllustration: body.tempIllustration, lines };
  const saved = await writeTemplate(tx, agencyId, session.userId, input, body.id);
  await audit(tx, req, session, editing ? 'contract_template.edit' : 'contract_template.add', `template:${saved.id}`, {
    before,
    after: { tempName: body.tempName, total: fenToYuan(total), lines },
  });
  return { id: saved.id, tempTotalPrice: fenToYuan(saved.totalFen) };
});

const templateStatic = serve(templateStaticCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  // Only an administrator switches a template on or off (business.md §5).
  if (!session.isAdmin) throw new AppError(CODE.NO_PERMISSION, TEMPLATE_MSG.adminOnly);
  await requireTemplate(tx, agencyId, body.id);
  await tx
    .update(contractTemplates)
    .set({ tempStatic: body.temp_static, updatedAt: new Date() })
    .where(and(eq(contractTemplates.id, body.id), eq(contractTemplates.agencyId, agencyId)));
  await audit(tx, req, session, 'contract_template.static', `template:${body.id}`, { temp_static: body.temp_static });
  return null;
});

const templateVerifySet = serve(templateVerifySetCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const row = await requireTemplate(tx, agencyId, body.id);
  if (row.tempStatic !== '1') throw new AppError(CODE.BAD_REQUEST, TEMPLATE_MSG.settingsDisabled);
  await tx
    .update(contractTemplates)
    .set({ isVerifySet: body.isVerifySet })
    .where(and(eq(contractTemplates.id, body.id), eq(contractTemplates.agencyId, agencyId)));
  await audit(tx, req, session, 'contract_template.verify_set', `template:${body.id}`, {
    isVerifySet: body.isVerifySet,
  });
  return null;
});

const templateDelete = serve(templateDeleteCall, async ({ body, session, tx, req }) => {
  const agencyId = tenantOf(session);
  const snapshot = await templateSnapshot(tx, agencyId, body.id);
  // Lines go with it (cascade); contracts made from it keep their own lines, template_id set null.
  await tx
    .delete(contractTemplates)
    .where(and(eq(contractTemplates.id, body.id), eq(contractTemplates.agencyId, agencyId)));
  await audit(tx, req, session, 'contract_template.delete', `template:${body.id}`, snapshot);
  return null;
});

export const contractTemplateModule: ServerModule = {
  name: 'contract-template',
  calls: [
    serviceList,
    serviceSave,
    serviceStatic,
    templatePageServed,
    templateList,
    templateById,
    templateByIdV2,
    templateSave,
    templateStatic,
    templateVerifySet,
    templateDelete,
  ],
  routes: contractTemplateFileRoutes,
};
