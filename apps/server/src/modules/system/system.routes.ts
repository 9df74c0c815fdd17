import { CODE, MSG } from '@dzy/shared';
import { desc, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { smsOutbox } from '../../db/schema/index.js';
import type { Deps, Served, ServerModule } from '../../plugins/calls.js';
import { resolveSession } from '../../plugins/session.js';

const VERSION = '0.1.0';

/** OpenAPI 3.1 from the same zod schemas the server validates with. */
export function openApiDocument(calls: readonly Served[], plain: readonly PlainRoute[] = []) {
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
  for (const r of plain) {
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    const params = [...r.url.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const op: Record<string, unknown> = {
      summary: r.multipart ? '文件上传（multipart/form-data，文件字段 file）' : '文件下载或导出',
      'x-plain-route': true,
      ...(params.length ? { parameters: params } : {}),
      ...(r.multipart
        ? {
            requestBody: {
              required: true,
              content: {
                'multipart/form-data': {
                  schema: {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', format: 'binary', description: '上传的文件' } },
                  },
                },
              },
            },
          }
        : {}),
      responses: {
        200: r.multipart
          ? { description: '信封 {code, msg, data}', content: { 'application/json': { schema: { type: 'object' } } } }
          : { description: '文件内容（或出错时的信封 {code, msg, data}）' },
      },
    };
    const at = (paths[path] ?? {}) as Record<string, unknown>;
    at[r.method.toLowerCase()] = op;
    paths[path] = at;
  }
  return {
    openapi: '3.1.0',
    info: { title: '代账云 API', version: VERSION, description: '调用方式、API 密钥和 Webhook 见 docs/api.md' },
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'API 密钥（dzy_ 开头），在 设置 → API 密钥 创建' },
        session: { type: 'apiKey', in: 'cookie', name: 'dzy_session' },
      },
    },
    security: [{ apiKey: [] }, { session: [] }],
    paths,
  };
}

export interface PlainRoute {
  method: string;
  url: string;
  /** Takes a multipart/form-data upload (registered where @fastify/multipart's parser is). */
  multipart: boolean;
}

/**
 * The routes modules serve besides the calls (uploads, downloads, exports), read by registering them on a
 * throwaway instance, as apps/server/test/routes.test.ts does: a route whose scope has the multipart
 * parser is an upload.
 */
export async function plainRoutes(modules: readonly ServerModule[]): Promise<PlainRoute[]> {
  const app = Fastify({ logger: false });
  const seen: PlainRoute[] = [];
  app.addHook('onRoute', function (this: FastifyInstance, r) {
    const multipart = this.hasContentTypeParser('multipart/form-data');
    for (const method of [r.method].flat()) {
      if (method !== 'HEAD' && r.url.startsWith('/api/')) {
        seen.push({ method, url: r.url, multipart: multipart && method === 'POST' });
      }
    }
  });
  for (const m of modules) if (m.name !== 'system') m.routes?.(app, {} as Deps);
  await app.ready();
  await app.close();
  return seen;
}

export function systemModule(
  allCalls: () => readonly Served[],
  allModules: () => readonly ServerModule[] = () => [],
): ServerModule {
  let document: Promise<ReturnType<typeof openApiDocument>> | null = null;
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
      app.get('/api/openapi.json', async () => {
        document ??= plainRoutes(allModules())
          .then((plain) => openApiDocument(allCalls(), plain))
          .catch((err) => {
            document = null;
            throw err;
          });
        return document;
      });
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
