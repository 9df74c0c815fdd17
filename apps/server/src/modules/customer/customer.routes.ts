import {
  accessLogCall,
  agencyEquityCall,
  allocateUsersCall,
  BENEFIT_MENU,
  CODE,
  CUSTOMER_MSG,
  chooserListCall,
  contactListCall,
  customerAssignCall,
  customerCreateCall,
  customerDeleteCall,
  customerDetailCall,
  customerListCall,
  customerPurgeCall,
  customerRestoreCall,
  customerServiceCall,
  customerUpdateCall,
  deleteAttachmentCall,
  equityCheckCall,
  getMemoryCall,
  gradeDeleteCall,
  gradeListCall,
  gradeSaveCall,
  hasPerm,
  IMPORT_QUEUE,
  type ImportResult,
  importProgressCall,
  labelDeleteCall,
  labelListCall,
  labelSaveCall,
  muteEquityCall,
  noQyshListCall,
  recycleListCall,
  updateMemoryCall,
  updateQyshCall,
} from '@dzy/shared';
import { and, asc, desc, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { countOf, listPage, NO_CURSORS, pageIds } from '../../db/paging.js';
import {
  accessLog,
  departments,
  enterpriseAttachments,
  enterpriseContacts,
  enterpriseShareholders,
  enterprises,
  equityMenus,
  grades,
  jobs,
  labels,
  memberships,
  organisations,
  userLastQuery,
  users,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { nameOrTaxNumber } from '../../lib/search.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { Answer, AppError } from '../../plugins/errors.js';
import { emitWebhook } from '../apikey/webhook.js';
import { isAgencyMember, isUniqueViolation, requireMembers } from '../role/member.repo.js';
import { phoneViewer, unmaskContacts } from '../staff/phone-setting.js';
import { credentialRevealCalls } from './credential-reveal.js';
import { customerFileRoutes, removeAttachmentFiles } from './customer.files.js';
import { importJob } from './customer.jobs.js';
import {
  agencyOf,
  customerPage,
  customerWhere,
  ENTERPRISE_NOT_FOUND,
  itemsFor,
  requireEnterprise,
  requireEnterprises,
  visible,
} from './customer.repo.js';
import {
  assertLicence,
  assertQyshFree,
  baseColumns,
  credentialColumns,
  credentialFieldsSet,
  enforceEquity,
  equityFacts,
  maskedCredentials,
  normQysh,
  notifyAssigned,
  quotaCoverage,
  replaceChildren,
  validateInput,
} from './customer.service.js';
import { masterDataFileRoutes } from './master-data.files.js';
import { masterDataCalls } from './master-data.routes.js';
import { noteCalls } from './note.routes.js';

const LABEL_TAKEN = '标签名称已存在';
const GRADE_TAKEN = '等级名称已存在';

export const customerModule: ServerModule = {
  name: 'customer',
  jobs: [importJob],
  routes: (app, deps) => {
    customerFileRoutes(app, deps);
    masterDataFileRoutes(app, deps);
  },
  calls: [
    serve(customerListCall, async ({ body, session, tx }) => {
      const agencyId = agencyOf(session);
      const where = customerWhere(session, agencyId, body);
      const page = await customerPage(tx, agencyId, where, body);
      // Who sees full contact phones is the agency's 号码显示设置 (issue 19 point 3).
      const see = await phoneViewer(tx, session);
      return { ...page, list: page.list.map((c) => ({ ...c, contactPhone: see.client(c.contactPhone) })) };
    }),

    serve(customerDetailCall, async ({ body, session, tx }) => {
      const agencyId = agencyOf(session);
      const e = await requireEnterprise(tx, session, body.id);
      const [item] = await itemsFor(tx, agencyId, [e.id]);
      if (!item) throw new AppError(CODE.NOT_FOUND, ENTERPRISE_NOT_FOUND);
      const contacts = await tx
        .select({
          id: enterpriseContacts.id,
          name: enterpriseContacts.name,
          position: enterpriseContacts.position,
          mobile: enterpriseContacts.mobile,
          landline: enterpriseContacts.landline,
          email: enterpriseContacts.email,
          isPrimary: enterpriseContacts.isPrimary,
        })
        .from(enterpriseContacts)
        .where(eq(enterpriseContacts.enterpriseId, e.id))
        .orderBy(desc(enterpriseContacts.isPrimary), asc(enterpriseContacts.id));
      // Masked as in the list (号码显示设置); saving the masked value back keeps the stored number.
      const see = await phoneViewer(tx, session);
      const shareholders = await tx
        .select({
          id: enterpriseShareholders.id,
          name: enterpriseShareholders.name,
          share: enterpriseShareholders.share,
        })
        .from(enterpriseShareholders)
        .where(eq(enterpriseShareholders.enterpriseId, e.id))
        .orderBy(asc(enterpriseShareholders.id));
      const attachments = await tx
        .select({ a: enterpriseAttachments, by: users.hymc })
        .from(enterpriseAttachments)
        .leftJoin(users, eq(users.id, enterpriseAttachments.uploadedBy))
        .where(eq(enterpriseAttachments.enterpriseId, e.id))
        .orderBy(desc(enterpriseAttachments.id));
      return {
        ...item,
        remark: e.remark,
        contacts: contacts.map((c) => ({ ...c, mobile: see.client(c.mobile) })),
        shareholders: shareholders.map((s) => ({ ...s, share: Number(s.share) })),
        attachments: attachments.map(({ a, by }) => ({
          id: a.id,
          fileName: a.fileName,
          mime: a.mime,
          size: a.size,
          uploadedByName: by ?? '',
          createdAt: a.createdAt.toISOString(),
        })),
        credentials: maskedCredentials(e),
      };
    }),

    serve(customerCreateCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      // Row-level security would refuse the row anyway (no handover yet); say why instead of failing.
      if (session.kjgcId !== null) throw new AppError(CODE.NO_PERMISSION, CUSTOMER_MSG.factoryNoCreate);
      const agencyId = agencyOf(session);
      const { allocate_user, ...input } = body;
      const owner = allocate_user ?? session.userId;
      if (owner !== session.userId) {
        if (!hasPerm(session.perms, 'customer:assign')) throw new AppError(CODE.NO_PERMISSION, '您没有分配客户的权限');
        await requireMembers(tx, agencyId, [owner]);
      }
      const { qysh, warning } = await validateInput(tx, { ...session, agencyId }, input);
      await assertLicence(tx, agencyId, 1);
      let id: number;
      try {
        const [row] = await tx
          .insert(enterprises)
          .values({
            agencyId,
            ...baseColumns(input, qysh),
            allocateUser: owner,
            ...(await quotaCoverage(tx)),
            ...credentialColumns(deps.config.secretKey, input.credentials),
          })
          .returning({ id: enterprises.id });
        if (!row) throw new Error('enterprise insert returned nothing');
        id = row.id;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, CUSTOMER_MSG.duplicate(input.qymc));
        throw err;
      }
      await replaceChildren(tx, agencyId, id, { ...input, contacts: await unmaskContacts(tx, null, input.contacts) });
      await audit(tx, req, session, 'customer.create', `enterprise:${id}`, {
        qymc: input.qymc,
        qysh,
        allocateUser: owner,
        credentials: credentialFieldsSet(input.credentials),
      });
      await emitWebhook(tx, agencyId, 'client.created', { id, qymc: input.qymc, qysh });
      await notifyAssigned(tx, deps.push, afterCommit, session, agencyId, owner, [{ id, qymc: input.qymc }]);
      return { id, warning };
    }),

    serve(customerUpdateCall, async ({ body, session, tx, req, deps }) => {
      const agencyId = agencyOf(session);
      const { id, ...input } = body;
      const before = await requireEnterprise(tx, session, id);
      const { qysh, warning } = await validateInput(tx, { ...session, agencyId }, input, id);
      // A masked mobile posted back (the viewer never saw the number) keeps the stored one.
      input.contacts = await unmaskContacts(tx, id, input.contacts);
      try {
        await tx
          .update(enterprises)
          .set({
            ...baseColumns(input, qysh),
            ...credentialColumns(deps.config.secretKey, input.credentials),
            updatedAt: new Date(),
          })
          .where(eq(enterprises.id, id));
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, CUSTOMER_MSG.duplicate(input.qymc));
        throw err;
      }
      await replaceChildren(tx, agencyId, id, input);
      const changed = (Object.keys(baseColumns(input, qysh)) as (keyof typeof before)[]).filter(
        (k) => String(before[k] ?? '') !== String((baseColumns(input, qysh) as Record<string, unknown>)[k] ?? ''),
      );
      await audit(tx, req, session, 'customer.update', `enterprise:${id}`, {
        qymc: input.qymc,
        changed,
        credentials: credentialFieldsSet(input.credentials),
      });
      await emitWebhook(tx, agencyId, 'client.changed', { id, qymc: input.qymc, qysh, changed });
      return { id, warning };
    }),

    ...credentialRevealCalls,

    serve(contactListCall, async ({ body, session, tx }) => {
      const e = await requireEnterprise(tx, session, body.enterpriseId);
      const see = await phoneViewer(tx, session);
      const rows = await tx
        .select({
          id: enterpriseContacts.id,
          name: enterpriseContacts.name,
          position: enterpriseContacts.position,
          mobile: enterpriseContacts.mobile,
          landline: enterpriseContacts.landline,
          email: enterpriseContacts.email,
          isPrimary: enterpriseContacts.isPrimary,
        })
        .from(enterpriseContacts)
        .where(eq(enterpriseContacts.enterpriseId, e.id))
        .orderBy(desc(enterpriseContacts.isPrimary), asc(enterpriseContacts.id));
      return rows.map((r) => ({ ...r, mobile: see.client(r.mobile) }));
    }),

    // --- actions ---------------------------------------------------------------------------------

    serve(customerAssignCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const agencyId = agencyOf(session);
      const rows = await requireEnterprises(tx, session, body.aeiIds);
      await requireMembers(tx, agencyId, [body.userId]);
      await enforceEquity(tx, session, agencyId, BENEFIT_MENU.assign, body.aeiIds);
      const moved = rows.filter((r) => r.allocateUser !== body.userId);
      if (moved.length > 0) {
        await tx
          .update(enterprises)
          .set({ allocateUser: body.userId, updatedAt: new Date() })
          .where(
            inArray(
              enterprises.id,
              moved.map((r) => r.id),
            ),
          );
      }
      await audit(tx, req, session, 'customer.assign', `user:${body.userId}`, {
        ids: moved.map((r) => r.id),
        from: moved.map((r) => r.allocateUser),
      });
      await notifyAssigned(tx, deps.push, afterCommit, session, agencyId, body.userId, moved);
      return { count: moved.length };
    }),

    serve(customerServiceCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const rows = await requireEnterprises(tx, session, body.aeiIds);
      await enforceEquity(tx, session, agencyId, BENEFIT_MENU.service, body.aeiIds);
      const changing = rows.filter((r) => r.serviceStatus !== body.serviceStatus).map((r) => r.id);
      if (changing.length > 0) {
        await tx
          .update(enterprises)
          .set({ serviceStatus: body.serviceStatus, updatedAt: new Date() })
          .where(inArray(enterprises.id, changing));
      }
      await audit(
        tx,
        req,
        session,
        body.serviceStatus === '1' ? 'customer.service_resume' : 'customer.service_stop',
        `enterprises:${changing.length}`,
        { ids: changing },
      );
      return { count: changing.length };
    }),

    serve(customerDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const rows = await requireEnterprises(tx, session, body.aeiIds);
      await enforceEquity(tx, session, agencyId, BENEFIT_MENU.delete, body.aeiIds);
      await tx.update(enterprises).set({ deletedAt: new Date() }).where(inArray(enterprises.id, body.aeiIds));
      await audit(tx, req, session, 'customer.delete', `enterprises:${rows.length}`, {
        ids: rows.map((r) => r.id),
        names: rows.map((r) => r.qymc),
      });
      return { count: rows.length };
    }),

    serve(recycleListCall, async ({ body, session, tx }) => {
      const agencyId = agencyOf(session);
      const where = and(
        visible(session, agencyId, true),
        nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.keyword),
        body.qyxz ? eq(enterprises.qyxz, body.qyxz) : undefined,
        body.allocateUser === undefined
          ? undefined
          : body.allocateUser === 0
            ? isNull(enterprises.allocateUser)
            : eq(enterprises.allocateUser, body.allocateUser),
      );
      const { pageNo, pageSize, cursor, ...filter } = body;
      const from = sql`${enterprises}`;
      const { total } = await countOf(tx, from, where as typeof from);
      // Most recently deleted first: the index (agency_id, deleted_at, id) where deleted.
      const page = await pageIds(tx, {
        from,
        where: where as typeof from,
        sort: { name: 'deleted', keys: [enterprises.deletedAt, enterprises.id], desc: true },
        ask: { pageNo, pageSize, cursor },
        filter,
        total: async () => total,
      });
      const found = await tx
        .select({
          id: enterprises.id,
          qymc: enterprises.qymc,
          qysh: enterprises.qysh,
          qyxz: enterprises.qyxz,
          owner: users.hymc,
          deletedAt: enterprises.deletedAt,
        })
        .from(enterprises)
        .leftJoin(users, eq(users.id, enterprises.allocateUser))
        .where(and(eq(enterprises.agencyId, agencyId), inArray(enterprises.id, page.ids.length ? page.ids : [0])));
      const rows = page.ids.flatMap((id) => found.filter((r) => r.id === id));
      return {
        list: rows.map((r) => ({
          id: r.id,
          qymc: r.qymc,
          qysh: r.qysh,
          qyxz: r.qyxz,
          allocateUserName: r.owner ?? '',
          deletedAt: r.deletedAt?.toISOString() ?? '',
        })),
        total,
        cursor: page.cursor,
      };
    }),

    serve(customerRestoreCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const rows = await requireEnterprises(tx, session, body.aeiIds, true);
      await assertLicence(tx, agencyId, rows.length);
      await tx
        .update(enterprises)
        .set({ deletedAt: null, updatedAt: new Date() })
        .where(inArray(enterprises.id, body.aeiIds));
      await audit(tx, req, session, 'customer.restore', `enterprises:${rows.length}`, {
        ids: rows.map((r) => r.id),
        names: rows.map((r) => r.qymc),
      });
      return { count: rows.length };
    }),

    serve(customerPurgeCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const rows = await requireEnterprises(tx, session, body.aeiIds, true);
      const files = await tx
        .select({ storedName: enterpriseAttachments.storedName })
        .from(enterpriseAttachments)
        .where(inArray(enterpriseAttachments.enterpriseId, body.aeiIds));
      // Contacts, shareholders, labels, attachments and notes go with the enterprise (on delete cascade).
      await tx.delete(enterprises).where(inArray(enterprises.id, body.aeiIds));
      await audit(tx, req, session, 'customer.purge', `enterprises:${rows.length}`, {
        ids: rows.map((r) => r.id),
        names: rows.map((r) => r.qymc),
        qysh: rows.map((r) => r.qysh),
      });
      afterCommit(() =>
        removeAttachmentFiles(
          deps,
          files.map((f) => f.storedName),
        ),
      );
      return { count: rows.length };
    }),

    serve(allocateUsersCall, async ({ session, tx }) => {
      const agencyId = agencyOf(session);
      const rows = await tx
        .select({ userId: memberships.userId, hymc: users.hymc, phone: users.phone, dept: departments.name })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .leftJoin(departments, eq(departments.id, memberships.departmentId))
        .where(isAgencyMember(agencyId))
        .orderBy(desc(memberships.isAdmin), asc(memberships.id));
      return rows.map((r) => ({ userId: r.userId, hymc: r.hymc || r.phone, departmentName: r.dept ?? '' }));
    }),

    // --- labels and grades -------------------------------------------------------------------

    serve(labelListCall, async ({ session, tx }) => {
      const agencyId = agencyOf(session);
      const rows = await tx
        .select({
          id: labels.id,
          name: labels.name,
          color: labels.color,
          count: sql<number>`(select count(*)::int from enterprise_labels el join enterprises e on e.id = el.enterprise_id where el.label_id = "labels"."id" and e.deleted_at is null)`,
        })
        .from(labels)
        .where(eq(labels.agencyId, agencyId))
        .orderBy(asc(labels.id));
      return rows;
    }),

    serve(labelSaveCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const [taken] = await tx
        .select({ id: labels.id })
        .from(labels)
        .where(
          and(eq(labels.agencyId, agencyId), eq(labels.name, body.name), body.id ? ne(labels.id, body.id) : undefined),
        );
      if (taken) throw new AppError(CODE.CONFLICT, LABEL_TAKEN);
      try {
        if (body.id) {
          const [row] = await tx
            .update(labels)
            .set({ name: body.name, color: body.color })
            .where(and(eq(labels.id, body.id), eq(labels.agencyId, agencyId)))
            .returning({ id: labels.id });
          if (!row) throw new AppError(CODE.NOT_FOUND, '标签不存在或无权访问');
          await audit(tx, req, session, 'customer.label_update', `label:${row.id}`, { name: body.name });
          return { id: row.id };
        }
        const [row] = await tx
          .insert(labels)
          .values({ agencyId, name: body.name, color: body.color })
          .returning({ id: labels.id });
        if (!row) throw new Error('label insert returned nothing');
        await audit(tx, req, session, 'customer.label_create', `label:${row.id}`, { name: body.name });
        return { id: row.id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, LABEL_TAKEN);
        throw err;
      }
    }),

    serve(labelDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const [row] = await tx
        .delete(labels)
        .where(and(eq(labels.id, body.id), eq(labels.agencyId, agencyId)))
        .returning({ name: labels.name });
      if (!row) throw new AppError(CODE.NOT_FOUND, '标签不存在或无权访问');
      await audit(tx, req, session, 'customer.label_delete', `label:${body.id}`, { name: row.name });
      return null;
    }),

    serve(gradeListCall, async ({ session, tx }) => {
      const agencyId = agencyOf(session);
      return tx
        .select({
          id: grades.id,
          name: grades.name,
          sort: grades.sort,
          count: sql<number>`(select count(*)::int from enterprises e where e.grade_id = "grades"."id" and e.deleted_at is null)`,
        })
        .from(grades)
        .where(eq(grades.agencyId, agencyId))
        .orderBy(asc(grades.sort), asc(grades.id));
    }),

    serve(gradeSaveCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const [taken] = await tx
        .select({ id: grades.id })
        .from(grades)
        .where(
          and(eq(grades.agencyId, agencyId), eq(grades.name, body.name), body.id ? ne(grades.id, body.id) : undefined),
        );
      if (taken) throw new AppError(CODE.CONFLICT, GRADE_TAKEN);
      try {
        if (body.id) {
          const [row] = await tx
            .update(grades)
            .set({ name: body.name, sort: body.sort })
            .where(and(eq(grades.id, body.id), eq(grades.agencyId, agencyId)))
            .returning({ id: grades.id });
          if (!row) throw new AppError(CODE.NOT_FOUND, '客户等级不存在或无权访问');
          await audit(tx, req, session, 'customer.grade_update', `grade:${row.id}`, { name: body.name });
          return { id: row.id };
        }
        const [row] = await tx
          .insert(grades)
          .values({ agencyId, name: body.name, sort: body.sort })
          .returning({ id: grades.id });
        if (!row) throw new Error('grade insert returned nothing');
        await audit(tx, req, session, 'customer.grade_create', `grade:${row.id}`, { name: body.name });
        return { id: row.id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(CODE.CONFLICT, GRADE_TAKEN);
        throw err;
      }
    }),

    serve(gradeDeleteCall, async ({ body, session, tx, req }) => {
      const agencyId = agencyOf(session);
      const [row] = await tx
        .delete(grades)
        .where(and(eq(grades.id, body.id), eq(grades.agencyId, agencyId)))
        .returning({ name: grades.name });
      if (!row) throw new AppError(CODE.NOT_FOUND, '客户等级不存在或无权访问');
      await audit(tx, req, session, 'customer.grade_delete', `grade:${body.id}`, { name: row.name });
      return null;
    }),

    // --- missing tax numbers -------------------------------------------------------------------

    serve(noQyshListCall, async ({ session, tx }) => {
      // Only someone who can fill them in is asked to.
      if (session.agencyId === null || !hasPerm(session.perms, 'customer:edit')) {
        return new Answer(CODE.EMPTY, '暂无数据', []);
      }
      const rows = await tx
        .select({ id: enterprises.id, qymc: enterprises.qymc, qysh: enterprises.qysh })
        .from(enterprises)
        .where(and(visible(session, session.agencyId), eq(enterprises.qysh, '')))
        .orderBy(asc(enterprises.id))
        .limit(500);
      return rows.length === 0 ? new Answer(CODE.EMPTY, '暂无数据', []) : rows;
    }),

    serve(updateQyshCall, async ({ body, session, tx, req }) => {
      agencyOf(session); // a caller without an agency has no clients to change
      const list = body.qyshList.map((r) => ({ id: r.id, qysh: normQysh(r.qysh) }));
      const rows = await requireEnterprises(
        tx,
        session,
        list.map((r) => r.id),
      );
      const seen = new Map<string, number>();
      for (const r of list) {
        const dup = seen.get(r.qysh);
        if (dup !== undefined && dup !== r.id) {
          const name = rows.find((x) => x.id === dup)?.qymc ?? '';
          throw new AppError(CODE.CONFLICT, CUSTOMER_MSG.duplicate(name));
        }
        seen.set(r.qysh, r.id);
        await assertQyshFree(tx, session, r.qysh, r.id);
      }
      for (const r of list) {
        await tx.update(enterprises).set({ qysh: r.qysh, updatedAt: new Date() }).where(eq(enterprises.id, r.id));
      }
      await audit(tx, req, session, 'customer.qysh_fill', `enterprises:${list.length}`, { list });
      return null;
    }),

    // --- benefits ----------------------------------------------------------------------------

    serve(agencyEquityCall, async ({ session, tx }) => {
      const menus = await tx.select().from(equityMenus).orderBy(asc(equityMenus.menuid));
      const [org] =
        session.agencyId === null
          ? []
          : await tx
              .select({ qyzt: organisations.qyzt, sfgxbzts: organisations.sfgxbzts })
              .from(organisations)
              .where(eq(organisations.id, session.agencyId));
      return {
        agency_id: session.agencyId,
        qyzt: org?.qyzt ?? '',
        sfgxbzts: org?.sfgxbzts ?? '',
        kjgc: session.orgType === 'kjgc',
        menus,
      };
    }),

    serve(equityCheckCall, async ({ body, session, tx }) => {
      const agencyId = agencyOf(session);
      await requireEnterprises(tx, session, body.aeiIds);
      return equityFacts(tx, session, agencyId, body.menuid, [...new Set(body.aeiIds)]);
    }),

    serve(muteEquityCall, async ({ body, session, tx, req }) => {
      if (session.agencyId === null || body.agency_id !== session.agencyId) {
        throw new AppError(CODE.NOT_FOUND, '代理机构不存在或无权访问');
      }
      await tx.update(organisations).set({ sfgxbzts: body.sfgxbzts }).where(eq(organisations.id, session.agencyId));
      await audit(tx, req, session, 'customer.equity_mute', `agency:${session.agencyId}`);
      return null;
    }),

    // --- remembered query, access log, chooser ------------------------------------------------

    serve(getMemoryCall, async ({ body, session, tx }) => {
      if (session.agencyId === null) return { query: null };
      const [row] = await tx
        .select({ query: userLastQuery.query })
        .from(userLastQuery)
        .where(
          and(
            eq(userLastQuery.agencyId, session.agencyId),
            eq(userLastQuery.userId, session.userId),
            eq(userLastQuery.pageKey, body.pageKey),
          ),
        );
      return { query: row?.query ?? null };
    }),

    serve(updateMemoryCall, async ({ body, session, tx }) => {
      if (session.agencyId === null) return null;
      await tx
        .insert(userLastQuery)
        .values({ agencyId: session.agencyId, userId: session.userId, pageKey: body.pageKey, query: body.query })
        .onConflictDoUpdate({
          target: [userLastQuery.agencyId, userLastQuery.userId, userLastQuery.pageKey],
          set: { query: body.query, updatedAt: new Date() },
        });
      return null;
    }),

    serve(accessLogCall, async ({ body, session, tx }) => {
      const e = await requireEnterprise(tx, session, body.enterprise_id);
      await tx.insert(accessLog).values({
        agencyId: e.agencyId,
        userId: session.userId,
        enterpriseId: e.id,
        cpbm: body.cpbm,
        qysh: e.qysh,
        qymc: e.qymc,
        sssf: e.sssf,
        ssds: e.ssds,
        ssqx: e.ssqx,
        qyxz: e.qyxz,
      });
      return null;
    }),

    serve(chooserListCall, async ({ body, session, tx }) => {
      if (session.agencyId === null) return { list: [], total: 0, cursor: NO_CURSORS };
      const where = and(
        visible(session, session.agencyId),
        nameOrTaxNumber(enterprises.qymc, enterprises.qysh, body.qymc),
      );
      const { pageNum, pageSize, cursor, ...filter } = body;
      const sort = { name: 'qymc', keys: [enterprises.qymc, enterprises.id], desc: false };
      const ask = { pageNo: pageNum, pageSize, cursor };
      return listPage(tx, { from: sql`${enterprises}`, where: where as SQL, sort, ask, filter }, (ids) =>
        tx
          .select({
            id: enterprises.id,
            qymc: enterprises.qymc,
            qysh: enterprises.qysh,
            qybm: enterprises.qybm,
            agency_id: enterprises.agencyId,
            allocate_user: enterprises.allocateUser,
          })
          .from(enterprises)
          .where(and(eq(enterprises.agencyId, session.agencyId as number), inArray(enterprises.id, ids))),
      );
    }),

    serve(deleteAttachmentCall, async ({ body, session, tx, req, deps, afterCommit }) => {
      const agencyId = agencyOf(session);
      const [a] = await tx
        .select()
        .from(enterpriseAttachments)
        .where(and(eq(enterpriseAttachments.id, body.id), eq(enterpriseAttachments.agencyId, agencyId)));
      if (!a) throw new AppError(CODE.NOT_FOUND, '附件不存在或无权访问');
      await requireEnterprise(tx, session, a.enterpriseId);
      await tx.delete(enterpriseAttachments).where(eq(enterpriseAttachments.id, a.id));
      await audit(tx, req, session, 'customer.attachment_delete', `enterprise:${a.enterpriseId}`, {
        attachment: a.id,
        fileName: a.fileName,
      });
      afterCommit(() => removeAttachmentFiles(deps, [a.storedName]));
      return null;
    }),

    serve(importProgressCall, async ({ body, session, tx }) => {
      const agencyId = agencyOf(session);
      const [job] = await tx
        .select()
        .from(jobs)
        .where(and(eq(jobs.id, body.jobId), eq(jobs.agencyId, agencyId), eq(jobs.queue, IMPORT_QUEUE)));
      // Only the one who imported follows the job.
      if (!job || (job.payload as { userId?: number }).userId !== session.userId) {
        throw new AppError(CODE.NOT_FOUND, '导入任务不存在或无权访问');
      }
      const progress = (job.progress ?? {}) as { total?: number; done?: number };
      const total = Number((job.payload as { total?: number }).total ?? progress.total ?? 0);
      return {
        state: job.state as 'queued' | 'running' | 'done' | 'failed' | 'cancelled',
        total,
        done: job.state === 'done' ? total : Math.min(total, Number(progress.done ?? 0)),
        result: job.state === 'done' ? (job.result as ImportResult) : null,
        error: job.state === 'failed' ? '导入失败，请稍后重试或联系客服' : null,
        // Running, but its lease ran out without a heartbeat: the worker is gone and another takes it.
        interrupted: job.state === 'running' && job.lockedUntil !== null && job.lockedUntil.getTime() < Date.now(),
      };
    }),

    ...noteCalls,
    ...masterDataCalls,
  ],
};
