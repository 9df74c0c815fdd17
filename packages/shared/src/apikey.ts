import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { isCalendarDay } from './validators.js';

/**
 * API keys and webhooks (issue 18 point 4, docs/decisions/auth.md): an agency administrator gives a
 * program a key (`Authorization: Bearer dzy_…`) acting under a chosen set of permissions, and registers
 * endpoints that are told, HMAC-signed, when something happens in the agency.
 */

/** A key's secret starts with this; a bearer token that does not is a session token. */
export const API_KEY_PREFIX = 'dzy_';
export const API_KEY_NAME_MAX = 30;
export const API_KEYS_MAX = 50;
export const WEBHOOKS_MAX = 20;
export const WEBHOOK_URL_MAX = 500;
export const APIKEY_PAGE_SIZES = [10, 20, 50] as const;

export const WEBHOOK_EVENTS = [
  { value: 'client.created', label: '新增客户' },
  { value: 'client.changed', label: '客户信息变更' },
  { value: 'contract.signed', label: '合同签订' },
  { value: 'charge.recorded', label: '登记收费' },
  { value: 'check.finished', label: '报税检查完成' },
  { value: 'return.filed', label: '申报完成' },
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]['value'] | 'ping';
const EVENT_VALUES = WEBHOOK_EVENTS.map((e) => e.value) as [string, ...string[]];
export const webhookEventLabel = (v: string) => WEBHOOK_EVENTS.find((e) => e.value === v)?.label ?? v;

/** Seconds after a failed try before the next one (tries 2-6); after the 6th the delivery is failed. */
export const WEBHOOK_BACKOFF_SECONDS = [60, 300, 1800, 7200, 43200] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_BACKOFF_SECONDS.length + 1;

export const DELIVERY_STATES = [
  { value: 'pending', label: '待发送', color: 'processing' },
  { value: 'retrying', label: '等待重试', color: 'warning' },
  { value: 'success', label: '成功', color: 'success' },
  { value: 'failed', label: '失败', color: 'error' },
] as const;
export const deliveryStateOf = (v: string) => DELIVERY_STATES.find((s) => s.value === v);

export const APIKEY_MSG = {
  nameRequired: '请输入密钥名称',
  nameTooLong: `密钥名称不能超过${API_KEY_NAME_MAX}个字符`,
  permsRequired: '请至少选择一项权限',
  permUnknown: '权限不存在或不能授予 API 密钥',
  expiryBad: '有效期须为今天之后的日期（YYYY-MM-DD）',
  tooMany: `每个机构最多${API_KEYS_MAX}个未撤销的密钥`,
  notFound: 'API 密钥不存在或已被删除',
  revoked: 'API 密钥已撤销',
  /** A call or route no key may use (keyMayCall): sign-in, account and identity, a person's own settings. */
  keyRefused: 'API 密钥不能调用此接口：密钥只用于已授权的业务数据，登录、账号与身份相关的操作须本人登录后进行',
  revokeConfirm: '撤销后使用此密钥的程序将立即无法访问，是否继续？',
  shownOnce: '密钥只显示这一次，请立即复制并妥善保存',
  urlRequired: '请输入接收地址',
  urlBad: '接收地址须为 http:// 或 https:// 开头的网址',
  urlTooLong: `接收地址不能超过${WEBHOOK_URL_MAX}个字符`,
  urlPrivate: '接收地址不能指向内网、本机、链路本地或云服务器元数据地址，请填写公网可访问的网址',
  urlUnresolved: '接收地址的域名无法解析，请检查网址',
  deliveryBlocked: '接收地址解析到内网或保留地址，已拒绝投递',
  eventsRequired: '请至少选择一个事件',
  eventUnknown: '事件不存在',
  webhooksTooMany: `每个机构最多${WEBHOOKS_MAX}个接收地址`,
  webhookNotFound: '接收地址不存在或已被删除',
  deliveryNotFound: '投递记录不存在或已被删除',
  webhookDisabled: '接收地址已停用，请先启用',
  created: '创建成功',
  saved: '保存成功',
  replayed: '已重新投递',
  pinged: '已发送测试事件',
} as const;

// --- API keys ------------------------------------------------------------------------------------

export const apiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters of the secret (`dzy_ab12`), to tell keys apart. */
  prefix: z.string(),
  perms: z.array(z.string()),
  createdByName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** active 有效, expired 已过期, revoked 已撤销. */
  state: z.enum(['active', 'expired', 'revoked']),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyListCall = defineCall({
  path: 'user/apikey/selectApiKeyList',
  summary: 'API 密钥：列表（按名称筛选，可含已撤销的）',
  access: 'agency:apikey:manage',
  body: z.strictObject({
    name: z.string().trim().max(50).default(''),
    state: z.enum(['', 'active', 'expired', 'revoked']).default(''),
    pageNo: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    ...cursorField,
  }),
  data: z.object({ list: z.array(apiKeySchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const apiKeyCreateBody = z.strictObject({
  name: z
    .string({ error: APIKEY_MSG.nameRequired })
    .trim()
    .min(1, APIKEY_MSG.nameRequired)
    .max(API_KEY_NAME_MAX, APIKEY_MSG.nameTooLong),
  perms: z
    .array(z.string().max(60, APIKEY_MSG.permUnknown), { error: APIKEY_MSG.permsRequired })
    .min(1, APIKEY_MSG.permsRequired)
    .max(500, APIKEY_MSG.permUnknown),
  /** Last day the key works (China's day), or null for no expiry. A real calendar day: 2027-13-45 is refused here. */
  expiresOn: z
    .string({ error: APIKEY_MSG.expiryBad })
    .trim()
    .refine(isCalendarDay, APIKEY_MSG.expiryBad)
    .nullable()
    .default(null),
});
export type ApiKeyCreateBody = z.input<typeof apiKeyCreateBody>;

export const apiKeyCreateCall = defineCall({
  path: 'user/apikey/addApiKey',
  summary: 'API 密钥：新建（密钥只在此返回一次，服务器只存其 SHA-256）',
  access: 'agency:apikey:manage',
  body: apiKeyCreateBody,
  data: z.object({ id: z.number(), prefix: z.string(), secret: z.string() }),
});

export const apiKeyRevokeCall = defineCall({
  path: 'user/apikey/revokeApiKey',
  summary: 'API 密钥：撤销（立即失效）',
  access: 'agency:apikey:manage',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.null(),
});

// --- webhooks ------------------------------------------------------------------------------------

export const webhookSchema = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.string()),
  remark: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
  /** The state of the latest delivery, or null when none was made. */
  lastState: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const webhookListCall = defineCall({
  path: 'user/webhook/selectWebhookList',
  summary: 'Webhook：接收地址列表',
  access: 'agency:webhook:manage',
  body: z.strictObject({}),
  data: z.array(webhookSchema),
});

const urlField = z
  .string({ error: APIKEY_MSG.urlRequired })
  .trim()
  .min(1, APIKEY_MSG.urlRequired)
  .max(WEBHOOK_URL_MAX, APIKEY_MSG.urlTooLong)
  .regex(/^https?:\/\/[^\s/]+/i, APIKEY_MSG.urlBad);
const eventsField = z
  .array(z.enum(EVENT_VALUES, { error: APIKEY_MSG.eventUnknown }), { error: APIKEY_MSG.eventsRequired })
  .min(1, APIKEY_MSG.eventsRequired)
  .max(EVENT_VALUES.length);

export const webhookSaveBody = z.strictObject({
  url: urlField,
  events: eventsField,
  remark: z.string().trim().max(100, '备注不能超过100个字符').default(''),
});
export type WebhookSaveBody = z.input<typeof webhookSaveBody>;

export const webhookCreateCall = defineCall({
  path: 'user/webhook/addWebhook',
  summary: 'Webhook：新增接收地址（签名密钥只在此返回一次）',
  access: 'agency:webhook:manage',
  body: webhookSaveBody,
  data: z.object({ id: z.number(), secret: z.string() }),
});

export const webhookUpdateCall = defineCall({
  path: 'user/webhook/updateWebhook',
  summary: 'Webhook：修改接收地址和事件',
  access: 'agency:webhook:manage',
  body: webhookSaveBody.extend({ id: z.number().int().positive() }),
  data: z.null(),
});

export const webhookEnableCall = defineCall({
  path: 'user/webhook/updateWebhookStatus',
  summary: 'Webhook：启用或停用接收地址',
  access: 'agency:webhook:manage',
  body: z.strictObject({ id: z.number().int().positive(), enabled: z.boolean({ error: '请选择启用或停用' }) }),
  data: z.null(),
});

export const webhookPingCall = defineCall({
  path: 'user/webhook/pingWebhook',
  summary: 'Webhook：发送测试事件 ping',
  access: 'agency:webhook:manage',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.object({ deliveryId: z.number() }),
});

export const webhookDeliverySchema = z.object({
  id: z.number(),
  event: z.string(),
  state: z.string(),
  attempts: z.number(),
  responseCode: z.number().nullable(),
  durationMs: z.number().nullable(),
  error: z.string(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextRetryAt: z.string().nullable(),
  /** The original delivery this one replays, or null. */
  replayOf: z.number().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesCall = defineCall({
  path: 'user/webhook/selectDeliveryList',
  summary: 'Webhook：某接收地址的投递记录（分页，按状态筛选）',
  access: 'agency:webhook:manage',
  body: z.strictObject({
    webhookId: z.number().int().positive(),
    state: z.enum(['', 'pending', 'retrying', 'success', 'failed']).default(''),
    pageNo: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    ...cursorField,
  }),
  data: z.object({ list: z.array(webhookDeliverySchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const webhookReplayCall = defineCall({
  path: 'user/webhook/replayDelivery',
  summary: 'Webhook：重新投递一条记录（同样的事件内容，新的投递记录）',
  access: 'agency:webhook:manage',
  body: z.strictObject({ id: z.number().int().positive() }),
  data: z.object({ deliveryId: z.number() }),
});
