import { CODE, MSG } from '@dzy/shared';
import { desc, sql } from 'drizzle-orm';
import { z } from 'zod';
import { smsOutbox } from '../../db/schema/index.js';
import type { Served, ServerModule } from '../../plugins/calls.js';
import { resolveSession } from '../../plugins/session.js';

const VERSION = '0.1.0';

/** OpenAPI 3.1 from the same zod schemas the server validates with. */
export function openApiDocument(calls: readonly Served[]) {
  const paths: Record<string, unknown> = {};
  for (const { def } of calls) {
    paths[`/api/${def.path}`] = {
      post: {
        summary: def.summary,
        'x-access': def.access,
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: z.toJSONSchema(def.body, { io: 'input', unrepresentable: 'any' }) },
          },
        },
        responses: {
          200: {
            description: '信封 {code, msg, data}；code 200 成功，406 为空，其他见 docs/api.md',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['code', 'msg', 'data'],
                  properties: {
                    code: { type: 'integer' },
                    msg: { type: 'string' },
                    data: z.toJSONSchema(def.data, { io: 'output', unrepresentable: 'any' }),
                  },
                },
              },
            },
          },
        },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: '代账云 API', version: VERSION }, paths };
}

export function systemModule(allCalls: () => readonly Served[]): ServerModule {
  return {
    name: 'system',
    calls: [],
    routes(app, deps) {
      const started = Date.now();
      app.get('/api/health', async () => {
        await deps.db.app.execute(sql`select 1`);
        return {
          code: CODE.OK,
          msg: MSG.ok,
          data: { db: deps.db.kind, version: VERSION, uptimeSeconds: Math.round((Date.now() - started) / 1000) },
        };
      });
      app.get('/api/openapi.json', async () => openApiDocument(allCalls()));
      // The development SMS outbox: the codes "sent" to phones. Absent in production; even in
      // development only a signed-in platform operator reads it (a dev server reachable by others
      // must not hand out everyone's sign-in codes). The codes are also in the server log.
      app.get('/api/dev/outbox', async (req, reply) => {
        if (deps.config.production) {
          return reply.status(404).send({ code: CODE.NOT_FOUND, msg: MSG.unknownCall, data: null });
        }
        const session = await resolveSession(deps.db.app, req);
        if (!session)
          return reply.status(403).send({ code: CODE.SESSION_EXPIRED, msg: MSG.sessionExpired, data: null });
        if (!session.isOperator) {
          return reply.status(460).send({ code: CODE.NO_PERMISSION, msg: MSG.noPermission, data: null });
        }
        const rows = await deps.db.app.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(100);
        return { code: CODE.OK, msg: MSG.ok, data: rows };
      });
    },
  };
}
