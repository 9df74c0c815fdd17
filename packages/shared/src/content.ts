import { z } from 'zod';
import { defineCall } from './call.js';
import { cursorField, pageCursorsSchema } from './paging.js';

/**
 * 财税课堂 (issue 17 point 5; business.md §7 "Content and messages": filterVideoList, videoList, saveOrder,
 * addWatchOld, addWatchNow). The platform operator publishes videos, lectures and news; every signed-in
 * user of every agency reads them. The spec's `{token}` entries are opaque; the named calls are served
 * under `content/` (docs/decisions-17-content.md).
 */

// --- dictionaries ------------------------------------------------------------------------------

/** The three kinds of content. */
export const CONTENT_KINDS = [
  { value: 'video', label: '视频' },
  { value: 'lecture', label: '讲座' },
  { value: 'news', label: '新闻' },
] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number]['value'];
export const CONTENT_KIND_VALUES = CONTENT_KINDS.map((k) => k.value) as [ContentKind, ...ContentKind[]];
export const contentKindName = (v: string) => CONTENT_KINDS.find((k) => k.value === v)?.label ?? v;

/** Subject categories (学科分类) an item is filed under. */
export const CONTENT_CATEGORIES = [
  '增值税',
  '企业所得税',
  '个人所得税',
  '社保公积金',
  '财务会计',
  '申报实务',
  '政策解读',
] as const;
export type ContentCategory = (typeof CONTENT_CATEGORIES)[number];

/** Where the media of an item is: an uploaded file, an external link, or none (news). */
export const CONTENT_SOURCES = ['upload', 'link', 'none'] as const;
export type ContentSource = (typeof CONTENT_SOURCES)[number];

export const CONTENT_TITLE_MAX = 60;
export const CONTENT_SUMMARY_MAX = 200;
export const CONTENT_BODY_MAX = 20_000;
export const CONTENT_URL_MAX = 500;
/** An uploaded video: mp4 or webm, up to 500 MB (a 45-minute 720p lecture is about 400 MB). */
export const CONTENT_VIDEO_MAX_BYTES = 500 * 1024 * 1024;
/** A cover image: jpg or png, up to 2 MB. */
export const CONTENT_COVER_MAX_BYTES = 2 * 1024 * 1024;
/** The operator's order is saved for the whole list at once; it stays small (a classroom, not a library). */
export const CONTENT_ORDER_MAX = 1000;
export const CONTENT_PAGE_SIZES = [12, 24, 48] as const;

/** Plain routes (multipart upload and the range-capable file download). */
export const CONTENT_FILES = {
  upload: 'content/upload',
  file: 'content/file',
} as const;
/** The URL a stored content file is read from. */
export const contentFileUrl = (name: string) => `/api/${CONTENT_FILES.file}/${name}`;
/** Stored names: 32 hex characters and the kind's extension. */
export const CONTENT_STORED_RE = /^[0-9a-f]{32}\.(mp4|webm|jpg|png)$/;

export const CONTENT_MSG = {
  titleRequired: '请输入标题',
  titleTooLong: `标题不能超过${CONTENT_TITLE_MAX}个字符`,
  kindRequired: '请选择内容类型',
  categoryRequired: '请选择学科分类',
  summaryTooLong: `简介不能超过${CONTENT_SUMMARY_MAX}个字符`,
  bodyTooLong: `正文不能超过${CONTENT_BODY_MAX}个字符`,
  bodyRequired: '新闻请填写正文',
  urlRequired: '请填写视频链接',
  urlBad: '视频链接须以 http:// 或 https:// 开头',
  fileRequired: '请上传视频文件',
  mediaRequired: '视频和讲座请上传视频文件或填写视频链接',
  noFile: '请选择要上传的文件',
  videoTooLarge: '视频文件不能超过500MB',
  coverTooLarge: '封面图片不能超过2MB',
  badVideo: '视频仅支持 MP4 或 WebM 格式',
  badCover: '封面仅支持 JPG 或 PNG 图片',
  notFound: '内容不存在或已下架',
  orderMismatch: '列表已变化，请刷新后重新排序',
} as const;

// --- shapes ------------------------------------------------------------------------------------

/** One item as readers see it. `mediaUrl`: the uploaded file's URL or the external link; '' for news. */
export const contentItemSchema = z.object({
  id: z.number(),
  kind: z.enum(CONTENT_KIND_VALUES),
  category: z.string(),
  title: z.string(),
  summary: z.string(),
  source: z.enum(CONTENT_SOURCES),
  mediaUrl: z.string(),
  coverUrl: z.string(),
  durationSec: z.number(),
  watchCount: z.number(),
  publishedAt: z.string().nullable(),
  /** The caller's last position in seconds (addWatchOld), 0 when never watched. */
  myPosition: z.number(),
});
export type ContentItem = z.infer<typeof contentItemSchema>;

export const contentDetailSchema = contentItemSchema.extend({ body: z.string() });
export type ContentDetail = z.infer<typeof contentDetailSchema>;

/** The operator's view: unpublished items too, the stored file names and the order. */
export const contentAdminItemSchema = contentDetailSchema.extend({
  published: z.boolean(),
  sortOrder: z.number(),
  videoFile: z.string(),
  videoUrl: z.string(),
  coverFile: z.string(),
  updatedAt: z.string(),
});
export type ContentAdminItem = z.infer<typeof contentAdminItemSchema>;

const idSchema = z.number({ error: '请选择内容' }).int().positive('请选择内容');
const pageSizeSchema = z
  .number()
  .int()
  .min(1, '每页条数须为1-100')
  .max(100, '每页条数须为1-100')
  .default(CONTENT_PAGE_SIZES[0]);
const pageBody = {
  pageNo: z.number().int().min(1, '页码须为正整数').default(1),
  pageSize: pageSizeSchema,
  ...cursorField,
};
const listFilter = {
  kind: z.enum(CONTENT_KIND_VALUES, { error: '内容类型有误' }).optional(),
  category: z.enum(CONTENT_CATEGORIES, { error: '学科分类有误' }).optional(),
  keyword: z.string().trim().max(50, '搜索内容不能超过50个字符').optional(),
};
const listData = <T extends z.ZodType>(item: T) =>
  z.object({ list: z.array(item), total: z.number(), cursor: pageCursorsSchema });

// --- calls: readers ----------------------------------------------------------------------------

export const filterVideoListCall = defineCall({
  path: 'content/filterVideoList',
  summary: '财税课堂筛选项：内容类型与学科分类（各自的已发布条数）',
  access: 'signedIn',
  body: z.strictObject({}),
  data: z.object({
    kinds: z.array(z.object({ value: z.string(), label: z.string(), count: z.number() })),
    categories: z.array(z.object({ value: z.string(), count: z.number() })),
  }),
});

export const videoListCall = defineCall({
  path: 'content/videoList',
  summary: '财税课堂列表：已发布的视频、讲座、新闻，按运营设定的顺序',
  access: 'signedIn',
  body: z.strictObject({ ...pageBody, ...listFilter }),
  data: listData(contentItemSchema),
});

export const videoInfoCall = defineCall({
  path: 'content/videoInfo',
  summary: '财税课堂内容详情（播放或阅读）',
  access: 'signedIn',
  body: z.strictObject({ id: idSchema }),
  data: contentDetailSchema,
});

export const addWatchNowCall = defineCall({
  path: 'content/addWatchNow',
  summary: '记一次观看：同一用户同一内容每天只计一次',
  access: 'signedIn',
  body: z.strictObject({ id: idSchema }),
  /** counted: whether this call added to the count (false: already counted today). */
  data: z.object({ watchCount: z.number(), counted: z.boolean() }),
});

export const addWatchOldCall = defineCall({
  path: 'content/addWatchOld',
  summary: '记录观看进度（下次从此处继续）',
  access: 'signedIn',
  body: z.strictObject({
    id: idSchema,
    position: z.number({ error: '播放进度有误' }).min(0, '播放进度有误').max(86_400, '播放进度有误'),
    duration: z.number().min(0).max(86_400).optional(),
  }),
  data: z.null(),
});

// --- calls: the platform operator --------------------------------------------------------------

export const contentAdminListCall = defineCall({
  path: 'content/adminList',
  summary: '课堂内容管理列表（平台运营，含未发布）',
  access: 'platform:content:edit',
  body: z.strictObject({ ...pageBody, ...listFilter, pageSize: pageSizeSchema.default(20) }),
  data: listData(contentAdminItemSchema),
});

const httpUrl = z
  .string()
  .trim()
  .max(CONTENT_URL_MAX, `链接不能超过${CONTENT_URL_MAX}个字符`)
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), CONTENT_MSG.urlBad);
const storedName = (re: RegExp, msg: string) =>
  z
    .string()
    .trim()
    .refine((v) => v === '' || (CONTENT_STORED_RE.test(v) && re.test(v)), msg);

export const contentSaveBodySchema = z
  .strictObject({
    /** Absent: a new item. */
    id: idSchema.optional(),
    kind: z.enum(CONTENT_KIND_VALUES, { error: CONTENT_MSG.kindRequired }),
    category: z.enum(CONTENT_CATEGORIES, { error: CONTENT_MSG.categoryRequired }),
    title: z
      .string({ error: CONTENT_MSG.titleRequired })
      .trim()
      .min(1, CONTENT_MSG.titleRequired)
      .max(CONTENT_TITLE_MAX, CONTENT_MSG.titleTooLong),
    summary: z.string().trim().max(CONTENT_SUMMARY_MAX, CONTENT_MSG.summaryTooLong).default(''),
    body: z.string().trim().max(CONTENT_BODY_MAX, CONTENT_MSG.bodyTooLong).default(''),
    source: z.enum(CONTENT_SOURCES, { error: CONTENT_MSG.mediaRequired }),
    videoFile: storedName(/\.(mp4|webm)$/, CONTENT_MSG.badVideo).default(''),
    videoUrl: httpUrl.default(''),
    coverFile: storedName(/\.(jpg|png)$/, CONTENT_MSG.badCover).default(''),
    durationSec: z.number().int().min(0).max(86_400, '时长有误').default(0),
    published: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (v.kind === 'news') {
      if (!v.body) ctx.addIssue({ code: 'custom', path: ['body'], message: CONTENT_MSG.bodyRequired });
      return;
    }
    if (v.source === 'upload' && !v.videoFile) {
      ctx.addIssue({ code: 'custom', path: ['videoFile'], message: CONTENT_MSG.fileRequired });
    }
    if (v.source === 'link' && !v.videoUrl) {
      ctx.addIssue({ code: 'custom', path: ['videoUrl'], message: CONTENT_MSG.urlRequired });
    }
    if (v.source === 'none') ctx.addIssue({ code: 'custom', path: ['source'], message: CONTENT_MSG.mediaRequired });
  });
export type ContentSaveBody = z.input<typeof contentSaveBodySchema>;

export const contentSaveCall = defineCall({
  path: 'content/save',
  summary: '新增或编辑课堂内容（平台运营）',
  access: 'platform:content:edit',
  body: contentSaveBodySchema,
  data: z.object({ id: z.number() }),
});

export const contentDeleteCall = defineCall({
  path: 'content/delete',
  summary: '删除课堂内容（平台运营）',
  access: 'platform:content:edit',
  body: z.strictObject({ id: idSchema }),
  data: z.null(),
});

export const saveOrderCall = defineCall({
  path: 'content/saveOrder',
  summary: '保存课堂内容的排列顺序（平台运营；全部内容的新顺序）',
  access: 'platform:content:edit',
  body: z.strictObject({
    ids: z
      .array(idSchema)
      .min(1, '请选择内容')
      .max(CONTENT_ORDER_MAX, `一次最多排序${CONTENT_ORDER_MAX}条`)
      .refine((ids) => new Set(ids).size === ids.length, '内容不可重复'),
  }),
  data: z.null(),
});
