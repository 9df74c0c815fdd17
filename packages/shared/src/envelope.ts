import { z } from 'zod';

/**
 * Body codes of the reply envelope `{code, msg, data}` (foundation.md §7-§8).
 * HTTP status mirrors them where HTTP has a meaning; the body code is the contract.
 */
export const CODE = {
  OK: 200,
  /** Input failed validation; msg names the field in Chinese. */
  BAD_REQUEST: 400,
  /** Not signed in, session expired or kicked: the client shows 登录超时，请重新登陆. */
  SESSION_EXPIRED: 403,
  /** Signed in but the role lacks the permission. Not 403: that one logs the user out. */
  NO_PERMISSION: 460,
  /** Id unknown, or not in the caller's tenant (the two are never told apart). */
  NOT_FOUND: 404,
  /** List or lookup is empty (phone sign-in: no such user yet). */
  EMPTY: 406,
  CONFLICT: 409,
  TOO_LARGE: 413,
  /** Locked for a while (too many failed sign-ins). */
  LOCKED: 423,
  TOO_MANY: 429,
  ERROR: 500,
} as const;
export type Code = (typeof CODE)[keyof typeof CODE];

export interface Reply<T> {
  code: number;
  msg: string;
  data: T;
}

export const MSG = {
  ok: '操作成功',
  sessionExpired: '登录超时，请重新登陆',
  noPermission: '当前账户没有该功能权限或者页面不存在',
  notFound: '数据不存在或无权访问',
  badJson: '请求内容不是有效的 JSON',
  tooLarge: '请求内容过大（上限 1MB）',
  unknownCall: '接口不存在',
  internal: '服务器开小差了，请稍后再试',
  databaseLost: '数据库连接中断，本次操作未完成，请重试',
  crossSite: '请求来自其他网站，已拒绝。请直接在本系统页面中操作',
  invalidText: '内容含有无法识别的字符（如空字符或残缺的表情符号），请删除后重试',
  tooMany: '请求过于频繁，请稍后再试',
} as const;

export const replySchema = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), msg: z.string(), data });
