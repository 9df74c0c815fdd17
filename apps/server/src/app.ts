import { randomUUID } from 'node:crypto';
import { httpBureauClient } from '@dzy/shared';
import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { type Config, fastifyTrustProxy } from './config.js';
import type { Database } from './db/client.js';
import { warmUp } from './db/warm.js';
import { accountModule } from './modules/account/account.routes.js';
import { accountStatusModule } from './modules/account-status/account-status.routes.js';
import { apiKeyModule } from './modules/apikey/apikey.routes.js';
import { auditLogModule } from './modules/audit-log/audit-log.routes.js';
import { authModule } from './modules/auth/auth.routes.js';
import { authChecksModule } from './modules/auth/auth-checks.routes.js';
import { bookCloseModule } from './modules/book-close/close.routes.js';
import { bookPrintModule } from './modules/book-print/print.routes.js';
import { bookReportsModule } from './modules/book-reports/book-reports.routes.js';
import { booksModule } from './modules/books/books.routes.js';
import { brandModule } from './modules/brand/brand.routes.js';
import { bureauChecksModule } from './modules/bureau-checks/bureau-checks.routes.js';
import { contentModule } from './modules/content/content.routes.js';
import { contractModule } from './modules/contract/contract.routes.js';
import { contractFeeModule } from './modules/contract-fee/contract-fee.routes.js';
import { contractTemplateModule } from './modules/contract-template/contract-template.routes.js';
import { customerModule } from './modules/customer/customer.routes.js';
import { dashboardModule } from './modules/dashboard/dashboard.routes.js';
import { dataListModule } from './modules/data-list/data-list.routes.js';
import { declareModule } from './modules/declare/declare.routes.js';
import { departmentModule } from './modules/department/department.routes.js';
import { etaxModule } from './modules/etax/etax.routes.js';
import { filingModule } from './modules/filing/filing.routes.js';
import { filingBatchModule } from './modules/filing-batch/filing-batch.routes.js';
import { filingCheckModule } from './modules/filing-check/filing-check.routes.js';
import { filingConfirmModule } from './modules/filing-confirm/confirm.routes.js';
import { filingEvidenceModule } from './modules/filing-evidence/evidence.routes.js';
import { filingHolidayModule } from './modules/filing-holiday/holiday.routes.js';
import { helperDistModule } from './modules/helper-dist/helper-dist.routes.js';
import { invoiceModule } from './modules/invoice/invoice.routes.js';
import { invoicePoolModule } from './modules/invoice-pool/invoice-pool.routes.js';
import { menuModule } from './modules/menu/menu.routes.js';
import { messageModule } from './modules/message/message.routes.js';
import { opportunityModule } from './modules/opportunity/opportunity.routes.js';
import { orgModule } from './modules/org/org.routes.js';
import { roleModule } from './modules/role/role.routes.js';
import { staffModule } from './modules/staff/staff.routes.js';
import { stationModule } from './modules/station/station.routes.js';
import { dictModule } from './modules/system/dict.routes.js';
import { systemModule } from './modules/system/system.routes.js';
import { thirdLoginModule } from './modules/third-login/third-login.routes.js';
import { twoFactorModule } from './modules/two-factor/two-factor.routes.js';
import { workOrderModule } from './modules/workorder/workorder.routes.js';
import { registerKeyGate } from './plugins/api-key.js';
import { type Deps, registerCalls, type ServerModule } from './plugins/calls.js';
import { registerErrorHandling } from './plugins/errors.js';
import { startJobRunner } from './plugins/jobs.js';
import { localPushHub, redisPushHub } from './plugins/push.js';
import { registerRateLimits } from './plugins/rate-limit.js';
import { registerSecurity } from './plugins/security.js';
import { outboxSms } from './plugins/sms.js';
import { registerWebStatic } from './plugins/web-static.js';

const BODY_LIMIT = 1024 * 1024;

/** Every module of the server, in one list. */
export function serverModules(): ServerModule[] {
  const modules: ServerModule[] = [
    authModule,
    authChecksModule,
    twoFactorModule,
    accountModule,
    menuModule,
    dashboardModule,
    orgModule,
    roleModule,
    stationModule,
    departmentModule,
    staffModule,
    messageModule,
    customerModule,
    contractTemplateModule,
    contractModule,
    contractFeeModule,
    workOrderModule,
    opportunityModule,
    declareModule,
    filingModule,
    filingBatchModule,
    filingCheckModule,
    filingEvidenceModule,
    filingConfirmModule,
    etaxModule,
    bureauChecksModule,
    helperDistModule,
    invoicePoolModule,
    invoiceModule,
    booksModule,
    bookCloseModule,
    bookReportsModule,
    bookPrintModule,
    dataListModule,
    contentModule,
    brandModule,
    accountStatusModule,
    thirdLoginModule,
    dictModule,
    filingHolidayModule,
    auditLogModule,
    apiKeyModule,
  ];
  return [
    ...modules,
    systemModule(
      () => modules.flatMap((m) => m.calls),
      () => modules,
    ),
  ];
}

export async function buildApp(config: Config, db: Database) {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Exact routes (Fastify's defaults, stated): a case, trailing-slash or doubled-slash variant of a call
    // matches nothing and is a 404 no handler sees, so it cannot dodge an abuse limit (plugins/rate-limit.ts).
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false },
    genReqId: () => randomUUID(),
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
  });
  let runner: ReturnType<typeof startJobRunner> | null = null;
  const bureauUrl = config.taxBureauUrl ?? `http://127.0.0.1:${config.taxSimPort}`;
  const deps: Deps = {
    config,
    db,
    sms: outboxSms(app.log, {
      production: config.production,
      dailyBudget: config.smsDailyBudget,
      agencyDailyBudget: config.smsAgencyDailyBudget,
    }),
    // Several server processes share pushes through Redis when REDIS_URL is set.
    push: config.redisUrl ? await redisPushHub(config.redisUrl, app.log) : localPushHub(),
    // main.ts starts the simulator and sets taxBureauUrl when no bureau is configured.
    bureau: httpBureauClient({ baseUrl: bureauUrl }),
    wakeJobs: () => runner?.wake(),
  };

  await app.register(fastifyCookie);
  registerErrorHandling(app);
  registerSecurity(app, bureauUrl);
  registerRateLimits(app, db, config.rateLimitFactor);
  // Before listening (listen awaits onReady) and before the job runner starts: the connection's caches are
  // filled here, not by the first requests (issue 30 point 4; not in unit tests, which build many apps;
  // WARM_UP=0 leaves it out, for bench/first-calls.ts's comparison).
  if (process.env.NODE_ENV !== 'test' && process.env.WARM_UP !== '0') {
    app.addHook('onReady', async () => {
      const warm = await warmUp(db);
      app.log.info(warm, 'database warmed up');
    });
  }

  const modules = serverModules();
  // Before every route: a request presenting an API key reaches only what a key may use (issue 26).
  registerKeyGate(
    app,
    modules.flatMap((m) => m.calls),
  );
  registerCalls(
    app,
    deps,
    modules.flatMap((m) => m.calls),
  );
  for (const m of modules) m.routes?.(app, deps);

  const handlers = modules.flatMap((m) => m.jobs ?? []);
  app.addHook('onReady', async () => {
    runner = startJobRunner(deps, handlers, app.log);
  });
  // Requests drain first (Fastify closes the server), then running jobs finish, then pushes stop.
  app.addHook('onClose', async () => {
    await runner?.stop();
    await deps.push.close();
  });

  await registerWebStatic(app, config.webDist);
  return app;
}
