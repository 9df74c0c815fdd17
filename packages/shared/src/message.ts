import { z } from 'zod';
import { defineCall } from './call.js';
import { provinceOf } from './org.js';
import { cursorField, pageCursorsSchema } from './paging.js';
import { mobileSchema } from './validators.js';

/**
 * The message centre, the bell, announcements, message settings, the help panel and the push channel
 * (foundation.md §2-§4, §7-§9; business.md help widget).
 */

// --- constants (foundation.md §9) -------------------------------------------------------------

/** The bell asks for news every 60 s (and is pushed in between). */
export const NEWS_POLL_MS = 60_000;
/** The bell shows at most 3 news items. */
export const NEWS_MAX = 3;
/** Message centre: page size 6, pager count 7. */
export const MESSAGE_PAGE_SIZE = 6;
export const MESSAGE_PAGER_COUNT = 7;
/** Settings are saved 1 s after the last checkbox change. */
export const SETTINGS_DEBOUNCE_MS = 1000;
/** Messages are kept six months, then deleted by a daily job. */
export const MESSAGE_KEEP_MONTHS = 6;
export const MESSAGE_KEEP_NOTE = '消息记录保留六个月';
export const NO_MESSAGE_TEXT = '暂无消息';
/** A reminder whose content says this has no details link (foundation.md §2). */
export const EXPIRED_MARK = '服务已到期';
/** Dispatch text in the bell: the label inside 【】 cut to 6 characters. */
export const BELL_LABEL_MAX = 6;

/** Push channel: heartbeat 5 s, reconnect after 5 s, at most 20 attempts. */
export const PUSH_HEARTBEAT_MS = 5000;
export const PUSH_RECONNECT_MS = 5000;
export const PUSH_MAX_RECONNECTS = 20;
/** The push channel's address on the page's own origin (ws: or wss: as the page). */
export const PUSH_PATH = '/api/ws';

/** msgStyleBig: 1 派工消息 dispatch, 2 系统提醒 system reminder, 3 系统公告 announcement. */
export const MSG_STYLE_BIG = { dispatch: 1, reminder: 2, announcement: 3 } as const;

/** The message centre's four tabs (foundation.md §2), in order. */
export const MESSAGE_TABS = ['派工消息', '系统提醒', '系统公告', '消息设置'] as const;

/**
 * Where a message's details link goes, by msgStyleSmall (foundation.md §2: with query news=1).
 * 'system' reminders have no page.
 */
export const MSG_TARGET_PATHS: Readonly<Record<string, string>> = {
  customer: '/customer/khgl/wdkh',
  contract: '/contract/htgl/htlb',
  workorder: '/customer/swgl/workorder',
  fee: '/contractFee/sfgl/sflb',
  opportunity: '/customer/swgl/sjgl',
};

/** The page a message's details link opens, or null when it has none. */
export function messageLink(m: { content: string; msgStyleSmall: string }): string | null {
  if (m.content.includes(EXPIRED_MARK)) return null;
  const path = MSG_TARGET_PATHS[m.msgStyleSmall];
  return path ? `${path}?news=1` : null;
}

/**
 * The message events (apps/server/src/modules/message/notify.ts creates their messages): the
 * bracketed label a message starts with and the page its details link opens.
 */
export const MESSAGE_EVENT_TEXT = {
  fp: { label: '客户分配提醒', msgStyleSmall: 'customer' },
  xjht: { label: '新建合同提醒', msgStyleSmall: 'contract' },
  xjgd: { label: '新建工单提醒', msgStyleSmall: 'workorder' },
  sftx: { label: '收费提醒', msgStyleSmall: 'fee' },
  reminder: { label: '系统提醒', msgStyleSmall: 'system' },
} as const;

/** A message's text: 【label】detail. */
export const messageText = (label: string, detail: string) => `【${label}】${detail}`;

/**
 * The bell's line for a message (foundation.md §9): the label inside 【】 cut to 6 characters, then the
 * rest; a message without a label gets its first 6 characters as the label.
 */
export function bellText(content: string): { label: string; rest: string } {
  const m = /^【([^】]*)】([\s\S]*)$/.exec(content);
  const label = Array.from(m ? (m[1] ?? '') : content);
  const rest = m ? (m[2] ?? '') : content;
  const cut = label.slice(0, BELL_LABEL_MAX).join('');
  return { label: `【${cut}${label.length > BELL_LABEL_MAX ? '…' : ''}】`, rest };
}

// --- news and messages ------------------------------------------------------------------------

export const newsItemSchema = z.object({
  id: z.number(),
  content: z.string(),
  msgStyleBig: z.number(),
  msgStyleSmall: z.string(),
  targetId: z.number().nullable(),
  createTime: z.string(),
});
export type NewsItem = z.infer<typeof newsItemSchema>;

export const selectNewsCall = defineCall({
  path: 'user/msg/selectMsgSend',
  summary: '未读消息（铃铛，最多3条）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({ list: z.array(newsItemSchema), total: z.number() }),
});

/**
 * Messages to pop up (foundation.md §7 alertMessageInfo {userId, pushTime}): the caller's unknown messages
 * pushed after pushTime (the previous answer's pushTime; none given: the last 24 hours), newest first, at
 * most NEWS_MAX; pushTime is the moment to ask from next time. The user is the session's, never the body's.
 */
export const alertMessageInfoCall = defineCall({
  path: 'user/message/alertMessageInfo',
  summary: '弹窗消息：上次之后推送的未读消息',
  access: 'signedIn',
  body: z.strictObject({
    pushTime: z.iso.datetime({ offset: true, error: '推送时间格式不正确' }).optional(),
  }),
  data: z.object({ list: z.array(newsItemSchema), pushTime: z.string() }),
});

/** ids joined by @ (foundation.md §7). */
const idsSchema = z
  .string({ error: '请选择消息' })
  .trim()
  .min(1, '请选择消息')
  .regex(/^[1-9]\d{0,9}(@[1-9]\d{0,9})*$/, '消息ID格式不正确（以@连接）')
  .transform((s) => [...new Set(s.split('@').map(Number))])
  .refine((ids) => ids.length <= 100, '一次最多100条消息')
  .refine((ids) => ids.every((n) => n <= 2_147_483_647), '消息ID格式不正确（以@连接）');

export const markNewsKnownCall = defineCall({
  path: 'user/msg/updateMsgSend',
  summary: '标记消息为已知（ids 以 @ 连接）',
  access: 'signedIn',
  body: z.strictObject({ ids: idsSchema }),
  data: z.object({ count: z.number() }),
});

export const messageListItemSchema = z.object({
  id: z.number(),
  content: z.string(),
  createTime: z.string(),
  msgStyleSmall: z.string(),
  targetId: z.number().nullable(),
  known: z.boolean(),
});
export type MessageListItem = z.infer<typeof messageListItemSchema>;

export const selectMsgListCall = defineCall({
  path: 'user/msg/selectMsgList',
  summary: '消息列表（派工消息 / 系统提醒；无数据 406）',
  access: 'signedIn',
  body: z.strictObject({
    msg_style_big: z.union([z.literal(1), z.literal(2)], { error: '消息类型须为1（派工消息）或2（系统提醒）' }),
    pageNo: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z.number().int().min(1, '每页条数须为1-50').max(50, '每页条数须为1-50').default(MESSAGE_PAGE_SIZE),
    ...cursorField,
  }),
  data: z.object({ list: z.array(messageListItemSchema), total: z.number(), cursor: pageCursorsSchema }),
});

// --- settings ---------------------------------------------------------------------------------

const flag = z.union([z.literal(0), z.literal(1)], { error: '须为1（开）或0（关）' });

export const msgSettingsSchema = z.object({ msg_fp: flag, msg_xjht: flag, msg_xjgd: flag, msg_sftx: flag });
export type MsgSettings = z.infer<typeof msgSettingsSchema>;
export const MSG_SETTING_LABELS: Readonly<Record<keyof MsgSettings, string>> = {
  msg_fp: '客户分配',
  msg_xjht: '新建合同',
  msg_xjgd: '新建工单',
  msg_sftx: '收费提醒',
};
/** For kjgc the settings tab shows only customer allocation (foundation.md §6). */
export const KJGC_MSG_SETTINGS = ['msg_fp'] as const;
export const KJGC_SETTING_ONLY_MSG = '会计工厂用户只能设置客户分配提醒';

export const getMsgSettingsCall = defineCall({
  path: 'user/agency/selectUserMsgSetting',
  summary: '我的消息设置',
  access: 'signedIn',
  body: z.strictObject({}),
  data: msgSettingsSchema,
});

export const updateMsgSettingsCall = defineCall({
  path: 'user/agency/updateUserMsgSetting',
  summary: '修改我的消息设置（会计工厂用户只能改 msg_fp）',
  access: 'signedIn',
  body: z
    .strictObject({
      msg_fp: flag.optional(),
      msg_xjht: flag.optional(),
      msg_xjgd: flag.optional(),
      msg_sftx: flag.optional(),
    })
    .refine((b) => Object.values(b).some((v) => v !== undefined), { message: '请选择要修改的设置' }),
  data: msgSettingsSchema,
});

// --- announcements ----------------------------------------------------------------------------

export const announcementSchema = z.object({
  id: z.number(),
  messageTitle: z.string(),
  fbTime: z.string(),
  /** Sanitised rich text (HTML). */
  messageInfo: z.string(),
  /** Background image the content asks for (the first background-image in its styles), or null. */
  bgImage: z.string().nullable(),
});
export type Announcement = z.infer<typeof announcementSchema>;

const pageBody = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: z.number().int().min(1, '每页条数须为1-100').max(100, '每页条数须为1-100').default(MESSAGE_PAGE_SIZE),
  ...cursorField,
};

export const selectAnnouncementsCall = defineCall({
  path: 'user/message/selectAnnouncementList',
  summary: '系统公告（本机构所在省份及全国；无数据 406）',
  access: 'signedIn',
  body: z.strictObject(pageBody),
  data: z.object({ list: z.array(announcementSchema), total: z.number(), cursor: pageCursorsSchema }),
});

/** The province an announcement is for: '' (all agencies) or a 6-digit province code. */
const announceSssfSchema = z
  .string()
  .trim()
  .refine((v) => v === '' || /^\d{2}0000$/.test(v), '请选择省份')
  .default('');

export const ANNOUNCE_TITLE_MAX = 100;
export const ANNOUNCE_INFO_MAX = 200_000;

export const publishAnnouncementCall = defineCall({
  path: 'user/message/publishAnnouncement',
  summary: '发布系统公告（平台运营）',
  access: 'platform:apply:review',
  body: z.strictObject({
    messageTitle: z
      .string({ error: '请输入公告标题' })
      .trim()
      .min(1, '请输入公告标题')
      .max(ANNOUNCE_TITLE_MAX, `公告标题不能超过${ANNOUNCE_TITLE_MAX}个字符`),
    messageInfo: z
      .string({ error: '请输入公告内容' })
      .min(1, '请输入公告内容')
      .max(ANNOUNCE_INFO_MAX, '公告内容过长（上限20万字符）'),
    sssf: announceSssfSchema,
  }),
  data: z.object({ id: z.number() }),
});

export const adminAnnouncementSchema = announcementSchema.extend({
  sssf: z.string(),
  provinceName: z.string(),
  publisherName: z.string(),
});
export type AdminAnnouncement = z.infer<typeof adminAnnouncementSchema>;

export const listAnnouncementsAdminCall = defineCall({
  path: 'user/message/listAnnouncementAdmin',
  summary: '已发布的系统公告（平台运营）',
  access: 'platform:apply:review',
  body: z.strictObject({
    ...pageBody,
    keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    sssf: z
      .string()
      .trim()
      .refine((v) => v === '' || v === 'all' || /^\d{2}0000$/.test(v), '请选择省份')
      .optional(),
    sortOrder: z.enum(['ascend', 'descend']).optional(),
  }),
  data: z.object({ list: z.array(adminAnnouncementSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const deleteAnnouncementCall = defineCall({
  path: 'user/message/deleteAnnouncement',
  summary: '删除系统公告（平台运营）',
  access: 'platform:apply:review',
  body: z.strictObject({ id: z.number({ error: '请选择公告' }).int().positive('请选择公告') }),
  data: z.null(),
});

export const SYSTEM_MSG_MAX = 200;

export const sendSystemMsgCall = defineCall({
  path: 'user/message/sendSystemMsg',
  summary: '向用户发送系统提醒（平台运营）',
  access: 'platform:apply:review',
  body: z.strictObject({
    phone: mobileSchema,
    content: z
      .string({ error: '请输入提醒内容' })
      .trim()
      .min(1, '请输入提醒内容')
      .max(SYSTEM_MSG_MAX, `提醒内容不能超过${SYSTEM_MSG_MAX}个字符`),
  }),
  /** How many messages were created (one per agency the user works in). */
  data: z.object({ count: z.number() }),
});

// --- help panel: hotlines, chat sessions, service requests -------------------------------------

export const hotlineSchema = z.object({ id: z.number(), rxmc: z.string(), rxnr: z.string() });
export type Hotline = z.infer<typeof hotlineSchema>;

/**
 * The AI entry and the hotlines are hidden for agencies of province 120000 whose type is kd
 * ("agency of type 2", foundation.md §2; docs/decisions/web.md).
 */
export function helpPanelHides(agency: { sssf: string | null | undefined; orgType: string | null | undefined }) {
  return provinceOf(agency.sssf) === '120000' && agency.orgType === 'kd';
}

export const getHotlinesCall = defineCall({
  path: 'user/agency/getFwsHotlineSetting',
  summary: '帮助面板：服务热线与是否显示 AI 咨询',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    list: z.array(hotlineSchema),
    /** False for province-120000 kd agencies: the AI entry and the hotlines are hidden. */
    showAiAndHotline: z.boolean(),
    /** Whether the caller may edit the hotlines (administrator). */
    editable: z.boolean(),
  }),
});

export const HOTLINE_MAX = 10;

export const saveHotlinesCall = defineCall({
  path: 'user/agency/saveFwsHotlineSetting',
  summary: '保存服务热线（管理员；整体替换）',
  access: 'agency:info:edit',
  body: z.strictObject({
    list: z
      .array(
        z.strictObject({
          rxmc: z
            .string({ error: '请输入热线名称' })
            .trim()
            .min(1, '请输入热线名称')
            .max(20, '热线名称不能超过20个字符'),
          rxnr: z
            .string({ error: '请输入热线号码' })
            .trim()
            .min(1, '请输入热线号码')
            .max(50, '热线号码不能超过50个字符')
            .regex(/^[0-9+\-()（） 转]+$/, '热线号码只能包含数字、+、-、括号、空格和“转”'),
        }),
      )
      .max(HOTLINE_MAX, `最多${HOTLINE_MAX}条热线`),
  }),
  data: z.object({ list: z.array(hotlineSchema) }),
});

/** Chat session status: 1 received (waiting for the user), 2 accepted, 3 refused (foundation.md §4). */
export const CHAT_STATUS = { received: 1, accepted: 2, refused: 3 } as const;
export const CHAT_PROMPT = '您当前有会话待接受，是否接入';

export const chatSessionSchema = z.object({
  id: z.number(),
  qysh: z.string(),
  qymc: z.string(),
  url: z.string(),
  status: z.number(),
  createTime: z.string(),
});
export type ChatSession = z.infer<typeof chatSessionSchema>;

const httpUrl = z
  .string()
  .trim()
  .max(500, '链接不能超过500个字符')
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), '请输入 http:// 或 https:// 开头的链接')
  .default('');

export const createChatSessionCall = defineCall({
  path: 'esLog/api/webcall/createSession',
  summary: '向用户发起客服会话（平台运营；推送给该用户）',
  access: 'platform:apply:review',
  body: z.strictObject({
    phone: mobileSchema,
    qysh: z.string().trim().max(20, '企业税号不能超过20个字符').default(''),
    url: httpUrl,
  }),
  data: z.object({ id: z.number() }),
});

export const getLastChatSessionCall = defineCall({
  path: 'esLog/api/webcall/getLogByLast',
  summary: '我待接受的最新客服会话（无则 406）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: chatSessionSchema,
});

export const updateChatSessionCall = defineCall({
  path: 'esLog/api/webcall/updateSessionStatus',
  summary: '接受或拒绝客服会话（2 接受，3 拒绝）',
  access: 'signedIn',
  body: z.strictObject({
    id: z.number({ error: '请选择会话' }).int().positive('请选择会话'),
    status: z.union([z.literal(2), z.literal(3)], { error: '状态须为2（接受）或3（拒绝）' }),
  }),
  data: chatSessionSchema,
});

export const SERVICE_ENT_PAGE_SIZE = 20;

export const serviceEntSchema = z.object({ id: z.number(), qymc: z.string(), qysh: z.string() });
export type ServiceEnt = z.infer<typeof serviceEntSchema>;

export const serviceEntListCall = defineCall({
  path: 'esLog/api/webcall/getEntList',
  summary: '在线客服：选择企业（按名称或税号，我的数据范围）',
  access: 'signedIn',
  body: z.strictObject({
    pageNum: z.number().int().min(1, '页码须为正整数').default(1),
    pageSize: z.number().int().min(1, '每页条数须为1-50').max(50, '每页条数须为1-50').default(SERVICE_ENT_PAGE_SIZE),
    qymc: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
    ...cursorField,
  }),
  data: z.object({ list: z.array(serviceEntSchema), total: z.number(), cursor: pageCursorsSchema }),
});

export const SERVICE_REQUEST_OK = '已通知在线客服，客服接入后会在页面右下角提示您';

export const insertServiceLogCall = defineCall({
  path: 'esLog/api/webcall/insertLog',
  summary: '在线客服：为所选企业发起咨询',
  access: 'signedIn',
  body: z.strictObject({ qysh: z.string({ error: '请选择企业' }).trim().min(1, '请选择企业').max(20, '请选择企业') }),
  data: z.object({ qymc: z.string() }),
});

// --- the push channel (foundation.md §4, §7) -------------------------------------------------

/** Commands on the push socket, as JSON {cmd, data}. */
export type PushCmd = 'handshake' | 'bind' | 'heartbeat' | 'ack' | 'push' | 'kick' | 'ok' | 'error';

export const handshakeSchema = z.strictObject({
  deviceId: z.string().trim().min(1).max(64),
  osName: z.string().max(64).default(''),
  osVersion: z.string().max(64).default(''),
  clientVersion: z.string().max(64).default(''),
});
export const bindSchema = z.strictObject({
  /** One user id or several joined by commas; each must be the session's own. */
  userId: z.union([z.number().int().positive(), z.string().trim().min(1).max(200)]),
  tags: z.union([z.string().max(200), z.array(z.string().max(50)).max(20)]).optional(),
});
export const ackSchema = z.strictObject({ id: z.string().min(1).max(64) });

/** What a `push` command carries. `ack` asks the client to acknowledge it with {cmd:'ack', data:{id}}. */
export interface PushEnvelope {
  id: string;
  type: string;
  data: Record<string, unknown>;
  ack?: boolean;
}

/** Close codes: the server ended the session's socket (signed out / expired), or kicked it. */
export const PUSH_CLOSE = { sessionEnded: 4403, kicked: 4409, unbound: 4400 } as const;
