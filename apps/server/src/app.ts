import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { accountModule } from './modules/account/account.routes.js';
import { authModule } from './modules/auth/auth.routes.js';
import { dashboardModule } from './modules/dashboard/dashboard.routes.js';
import { menuModule } from './modules/menu/menu.routes.js';
import { systemModule } from './modules/system/system.routes.js';
import { type Deps, registerCalls, type ServerModule } from './plugins/calls.js';
import { registerErrorHandling } from './plugins/errors.js';
import { outboxSms } from './plugins/sms.js';

const BODY_LIMIT = 1024 * 1024;

/** Every module of the server, in one list. */
export function serverModules(): ServerModule[] {
  const modules: ServerModule[] = [authModule, accountModule, menuModule, dashboardModule];
  return [...modules, systemModule(() => modules.flatMap((m) => m.calls))];
}

export async function buildApp(config: Config, db: Database) {
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    trustProxy: true,
    genReqId: () => randomUUID(),
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
  });
  const deps: Deps = { config, db, sms: outboxSms(app.log, config.production) };

  await app.register(fastifyCookie);
  registerErrorHandling(app);
  app.addHook('onSend', async (_req, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
  });

  const modules = serverModules();
  registerCalls(
    app,
    deps,
    modules.flatMap((m) => m.calls),
  );
  for (const m of modules) m.routes?.(app, deps);

  if (existsSync(config.webDist)) {
    await app.register(fastifyStatic, { root: config.webDist, wildcard: false });
  } else {
    app.log.warn({ webDist: config.webDist }, 'web client not built: run npm run build -w @dzy/web');
  }
  return app;
}
