import {
  CODE,
  downloadSbjtFilesSchema,
  EVIDENCE_FILES,
  EVIDENCE_MSG,
  FILING_TAX_TYPE_NAMES,
  hasPerm,
  MSG,
  SBJT_ZIP_MAX,
  sbjtylQuerySchema,
} from '@dzy/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inScope, type Tx } from '../../db/client.js';
import { enterprises, filingPlans } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import type { Deps, ServerModule } from '../../plugins/calls.js';
import { AppError, validationError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { resolveSession, type SessionCtx, scopeOf } from '../../plugins/session.js';
import { clientsInScope, type FiledReturn, filedReturnsOf, noReceipt, receiptPdfOf } from './evidence.repo.js';
import { receiptJob } from './receipt.jobs.js';
import { safeName, zipFiles } from './zip.js';

const disposition = (kind: 'inline' | 'attachment', name: string) =>
  `${kind}; filename="${encodeURIComponent(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** Receipts are for whoever sees the plan or the roster (the roster links to them). */
const mayView = (perms: readonly string[]) =>
  hasPerm(perms, 'declare:filing:view') || hasPerm(perms, 'declare:roster:view');

async function guard(deps: Deps, req: FastifyRequest) {
  const session = await resolveSession(deps.db.app, req);
  if (!session) throw new AppError(CODE.SESSION_EXPIRED, MSG.sessionExpired);
  if (!mayView(session.perms)) throw new AppError(CODE.NO_PERMISSION, MSG.noPermission);
  if (session.agencyId === null) throw new AppError(CODE.NOT_FOUND, EVIDENCE_MSG.notFound);
  const agencyId = session.agencyId;
  const scope = { ...scopeOf(session), agencyId };
  const scoped = <T>(fn: (tx: Tx) => Promise<T>) => inScope(deps.db.app, scope, fn);
  return { session: session as SessionCtx, agencyId, scope, scoped };
}

/** GET: the query string; POST: the JSON body. */
const input = (req: FastifyRequest) => (req.method === 'GET' ? req.query : req.body) ?? {};

const periodName = (r: FiledReturn) => (r.skssqq === r.skssqz ? r.skssqq : `${r.skssqq}至${r.skssqz}`);

/** How many receipts are fetched from the bureau at once while a zip is built. */
const FETCH_PARALLEL = 4;

/**
 * 申报回执 (tax-bureau.md §7 sbjtyl, downloadSbjtFiles): one return's receipt shown inline, and the
 * receipts of a plan, of chosen clients or of a filing month as one zip (a folder per client). Both are
 * written to the audit log with what was given out.
 */
export function evidenceRoutes(app: FastifyInstance, deps: Deps) {
  const sbjtyl = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const { session, agencyId, scope, scoped } = await guard(deps, req);
    const parsed = sbjtylQuerySchema.safeParse(input(req));
    if (!parsed.success) throw validationError(parsed.error);
    const q = parsed.data;
    const [found] = await scoped((tx) =>
      filedReturnsOf(tx, session, agencyId, { aeiIds: [q.aeiId], taxType: q.taxType, skssqq: q.skssqq }, 1),
    );
    if (!found) throw noReceipt();
    const pdf = await receiptPdfOf(deps, scope, found);
    await scoped((tx) =>
      audit(tx, req, scope, 'filing.receipt.view', `enterprise:${found.aeiId}`, {
        taxType: found.taxType,
        skssqq: found.skssqq,
        skssqz: found.skssqz,
        pzxh: found.pzxh,
      }),
    );
    return reply
      .header('content-type', 'application/pdf')
      .header(
        'content-disposition',
        disposition('inline', `${found.qymc}_${FILING_TAX_TYPE_NAMES[found.taxType]}_${periodName(found)}.pdf`),
      )
      .header('cache-control', 'private, no-store')
      .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
      .send(pdf);
  };
  app.get(`/api/${EVIDENCE_FILES.sbjtyl}`, sbjtyl);
  app.post(`/api/${EVIDENCE_FILES.sbjtyl}`, sbjtyl);

  const download = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    const { session, agencyId, scope, scoped } = await guard(deps, req);
    const raw = input(req) as Record<string, unknown>;
    // From a query string, aeiIds arrive as "1,2,3".
    const body =
      req.method === 'GET' && typeof raw.aeiIds === 'string'
        ? { ...raw, aeiIds: raw.aeiIds.split(',').filter(Boolean).map(Number) }
        : raw;
    const parsed = downloadSbjtFilesSchema.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error);
    const f = parsed.data;
    const returns = await scoped(async (tx) => {
      if (f.planId !== undefined) {
        const [plan] = await tx
          .select({ id: filingPlans.id, userId: filingPlans.userId })
          .from(filingPlans)
          .where(and(eq(filingPlans.agencyId, agencyId), eq(filingPlans.id, f.planId)));
        if (!plan) throw new AppError(CODE.NOT_FOUND, EVIDENCE_MSG.planNotFound);
      }
      if (f.aeiIds?.length) {
        const wanted = [...new Set(f.aeiIds)];
        const seen = await tx
          .select({ id: enterprises.id })
          .from(enterprises)
          .where(and(clientsInScope(session, agencyId), inArray(enterprises.id, wanted)));
        if (seen.length !== wanted.length) throw new AppError(CODE.NOT_FOUND, EVIDENCE_MSG.notYours);
      }
      return filedReturnsOf(tx, session, agencyId, f, SBJT_ZIP_MAX);
    });
    if (returns.length === 0) throw new AppError(CODE.NOT_FOUND, EVIDENCE_MSG.none);
    if (returns.length > SBJT_ZIP_MAX) throw new AppError(CODE.BAD_REQUEST, EVIDENCE_MSG.tooMany);

    const files: { name: string; data: Buffer }[] = [];
    const failed: FiledReturn[] = [];
    const pdfs = new Array<Buffer | null>(returns.length).fill(null);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(FETCH_PARALLEL, returns.length) }, async () => {
        for (let i = next++; i < returns.length; i = next++) {
          const r = returns[i] as FiledReturn;
          pdfs[i] = await receiptPdfOf(deps, scope, r).catch(() => null);
        }
      }),
    );
    // One folder per client; two clients of the same name keep apart (the second gets its tax number).
    const folders = new Map<number, string>();
    const taken = new Set<string>();
    const folderOf = (r: FiledReturn) => {
      let name = folders.get(r.aeiId);
      if (name === undefined) {
        name = safeName(r.qymc);
        if (taken.has(name)) name = safeName(`${r.qymc}_${r.qysh || r.aeiId}`);
        taken.add(name);
        folders.set(r.aeiId, name);
      }
      return name;
    };
    returns.forEach((r, i) => {
      const pdf = pdfs[i];
      if (!pdf) failed.push(r);
      else
        files.push({
          name: `${folderOf(r)}/${safeName(`${FILING_TAX_TYPE_NAMES[r.taxType]}_${periodName(r)}`)}.pdf`,
          data: pdf,
        });
    });
    if (files.length === 0) throw new AppError(CODE.ERROR, EVIDENCE_MSG.fetchFailed);
    if (failed.length > 0) {
      const lines = failed.map(
        (r) =>
          `${r.qymc}\t${r.qysh}\t${FILING_TAX_TYPE_NAMES[r.taxType]}\t${periodName(r)}\t${r.pzxh}\t${EVIDENCE_MSG.fetchFailed}`,
      );
      files.push({ name: '未能获取的回执.txt', data: Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8') });
    }
    await scoped((tx) =>
      audit(tx, req, scope, 'filing.receipt.download', `receipts:${files.length - (failed.length > 0 ? 1 : 0)}`, {
        planId: f.planId ?? null,
        aeiIds: f.aeiIds ?? null,
        filingMonth: f.filingMonth ?? null,
        clients: new Set(returns.map((r) => r.aeiId)).size,
        returns: returns
          .slice(0, 500)
          .map((r) => ({ aeiId: r.aeiId, taxType: r.taxType, skssqq: r.skssqq, pzxh: r.pzxh })),
        failed: failed.length,
      }),
    );
    const zip = await zipFiles(files);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', disposition('attachment', `申报回执_${chinaDate().replaceAll('-', '')}.zip`))
      .header('cache-control', 'private, no-store')
      .send(zip);
  };
  app.get(`/api/${EVIDENCE_FILES.downloadSbjtFiles}`, download);
  app.post(`/api/${EVIDENCE_FILES.downloadSbjtFiles}`, download);
}

export const filingEvidenceModule: ServerModule = {
  name: 'filing-evidence',
  calls: [],
  routes: evidenceRoutes,
  jobs: [receiptJob],
};
