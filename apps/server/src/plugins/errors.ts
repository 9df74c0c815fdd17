import { CODE, fieldLabel, MSG } from '@dzy/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { z } from 'zod';

/** A refusal with a code and the spec's Chinese message. Thrown, it undoes the call's writes. */
export class AppError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

/**
 * A reply other than plain success whose writes must still be kept (a failed sign-in is recorded,
 * a wrong SMS code counts an attempt). Returned, not thrown.
 */
export class Answer {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly data: unknown = null,
  ) {}
}

const HTTP_STATUS: Record<number, number> = {
  [CODE.OK]: 200,
  [CODE.EMPTY]: 200,
  [CODE.BAD_REQUEST]: 400,
  [CODE.SESSION_EXPIRED]: 403,
  // Not 403: clients take HTTP 403 as an expired session and sign the user out.
  [CODE.NO_PERMISSION]: 460,
  [CODE.NOT_FOUND]: 404,
  [CODE.CONFLICT]: 409,
  [CODE.TOO_LARGE]: 413,
  [CODE.LOCKED]: 423,
  [CODE.TOO_MANY]: 429,
  [CODE.ERROR]: 500,
};
export const httpStatusOf = (code: number) => HTTP_STATUS[code] ?? 400;

/** First issue as one Chinese line naming the field; all of them in data.errors. */
export function validationError(error: z.ZodError, labels?: Readonly<Record<string, string>>): AppError {
  const errors = error.issues.map((issue) => {
    const field = [...issue.path].reverse().find((p): p is string => typeof p === 'string') ?? '';
    const msg =
      issue.code === 'unrecognized_keys'
        ? `请求包含未知字段：${issue.keys.join('、')}`
        : field
          ? `${labels?.[field] ?? fieldLabel(field)}：${issue.message}`
          : issue.message;
    return { field: issue.path.join('.'), msg };
  });
  return new AppError(CODE.BAD_REQUEST, errors[0]?.msg ?? '请求参数有误', { errors });
}

/**
 * The server ended the connection (admin shutdown 57P0x, connection exceptions 08xxx) or the socket
 * broke: nothing of the call was committed, so retrying is safe.
 */
export function isConnectionLost(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^(57P0[123]|08...)$/.test(code) || code === 'ECONNRESET' || code === 'EPIPE') return true;
    const msg = typeof e.message === 'string' ? e.message : '';
    if (/Connection terminated|not queryable|terminating connection/i.test(msg)) return true;
  }
  return false;
}

/**
 * A database error as it may be logged: never the row (issue 26 point 2). Drizzle puts a failed query's
 * parameters in its message and PostgreSQL the failing row or key in `detail`; kept are the statement
 * (placeholders only), the code, the table and the constraint.
 */
export function withoutRowData(err: unknown): unknown {
  const e = err as {
    name?: string;
    message?: unknown;
    query?: unknown;
    params?: unknown;
    cause?: unknown;
    stack?: unknown;
  };
  if (!e || typeof e !== 'object' || !('params' in e || 'detail' in e || (e.cause && typeof e.cause === 'object')))
    return err;
  const pg = (e.cause ?? e) as {
    code?: unknown;
    message?: unknown;
    table?: unknown;
    constraint?: unknown;
    routine?: unknown;
  };
  return {
    type: e.name,
    message: String(e.message ?? '').split('\nparams:')[0],
    code: pg.code,
    table: pg.table,
    constraint: pg.constraint,
    cause: pg === e ? undefined : String(pg.message ?? ''),
    stack: typeof e.stack === 'string' ? e.stack.split('\nparams:')[0] : undefined,
  };
}

/** Every failure leaves as the envelope: never a stack trace. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(httpStatusOf(err.code)).send({ code: err.code, msg: err.message, data: err.data });
    }
    const known: Record<string, [number, string]> = {
      FST_ERR_CTP_BODY_TOO_LARGE: [CODE.TOO_LARGE, MSG.tooLarge],
      FST_ERR_CTP_INVALID_MEDIA_TYPE: [CODE.BAD_REQUEST, '请求内容类型须为 application/json'],
      FST_ERR_CTP_EMPTY_JSON_BODY: [CODE.BAD_REQUEST, MSG.badJson],
      FST_ERR_CTP_INVALID_JSON_BODY: [CODE.BAD_REQUEST, MSG.badJson],
    };
    const hit =
      known[err.code] ??
      (err instanceof SyntaxError || err.statusCode === 400 ? known.FST_ERR_CTP_INVALID_JSON_BODY : undefined);
    if (hit) {
      const [code, msg] = hit;
      return reply.status(httpStatusOf(code)).send({ code, msg, data: null });
    }
    if (isConnectionLost(err)) {
      // One request fails; the pool has dropped the broken connection and the next call gets a new one.
      req.log.warn({ err }, 'database connection lost during a call');
      return reply.status(503).send({ code: CODE.ERROR, msg: MSG.databaseLost, data: null });
    }
    req.log.error({ err: withoutRowData(err) }, 'unhandled error');
    return reply.status(500).send({ code: CODE.ERROR, msg: MSG.internal, data: null });
  });
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ code: CODE.NOT_FOUND, msg: MSG.unknownCall, data: { path: req.url } });
  });
}
