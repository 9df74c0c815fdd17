import type { Db } from '../../db/client.js';
import { contentItems } from '../../db/schema/index.js';

type NewItem = typeof contentItems.$inferInsert;

/**
 * Demo content of the classroom: news on the 2026 filing deadlines (税总办征科函〔2025〕64号, the table in
 * packages/shared/src/filing-calendar.ts) and lectures as external links (no video files in the repository).
 * Published over the past weeks; the list order is the operator's (sort_order).
 */
export const DEMO_CONTENT: readonly Omit<NewItem, 'sortOrder'>[] = [
  {
    kind: 'news',
    category: '申报实务',
    title: '2026年12月征期：12月15日前完成11月所属期申报',
    summary: '12月征期截止日为12月15日（星期二），增值税、附加税费、个人所得税扣缴等均需在此前申报缴款。',
    body: [
      '根据《国家税务总局办公厅关于2026年征收管理期限的通知》（税总办征科函〔2025〕64号），2026年12月的申报纳税期限为12月1日至12月15日。',
      '按月申报的增值税及附加税费、个人所得税（代扣代缴）、文化事业建设费等，请在12月15日前完成申报并缴款；逾期将产生滞纳金并影响纳税信用。',
      '年末事项提醒：请同步核对全年发票、社保缴费基数和个人所得税专项附加扣除信息，为次年3-6月的综合所得汇算做好准备。',
    ].join('\n\n'),
    publishedAt: new Date('2026-11-24T01:00:00Z'),
  },
  {
    kind: 'news',
    category: '个人所得税',
    title: '2027年度个税专项附加扣除信息确认将于12月开始',
    summary: '纳税人需在12月31日前通过个人所得税App确认次年扣除信息，代账机构可提醒客户员工及时确认。',
    body: [
      '每年12月，纳税人需对次年享受的专项附加扣除内容进行确认；未确认的，次年1月起暂停扣除，待确认后再行扣除。',
      '子女教育、3岁以下婴幼儿照护、赡养老人等项目的标准以现行政策为准；扣缴义务人在1月发放工资时依据确认后的信息预扣预缴。',
    ].join('\n\n'),
    publishedAt: new Date('2026-11-18T01:00:00Z'),
  },
  {
    kind: 'news',
    category: '申报实务',
    title: '11月征期顺延至11月16日，请提醒客户按时申报',
    summary: '因11月15日为周日，2026年11月申报纳税期限顺延至11月16日。',
    body: [
      '2026年11月申报纳税期限为11月1日至11月16日（15日为星期日，顺延一日）。',
      '代账机构可在“申报清册”中同步本月申报状态，对未申报的客户使用批量申报；在“数据列表”中可一并查看客户的合同、欠费与本月申报情况。',
      '按季申报的小规模纳税人本月无需申报增值税，但仍需按月申报个人所得税（代扣代缴）。',
    ].join('\n\n'),
    publishedAt: new Date('2026-11-02T01:00:00Z'),
  },
  {
    kind: 'news',
    category: '政策解读',
    title: '2026年全年申报纳税期限一览',
    summary:
      '1月20日、2月24日、3月16日、4月20日、5月22日、6月15日、7月15日、8月17日、9月15日、10月26日、11月16日、12月15日。',
    body: [
      '2026年各月申报纳税期限截止日：1月20日；2月24日（春节顺延）；3月16日；4月20日；5月22日（劳动节顺延）；6月15日；7月15日；8月17日；9月15日；10月26日（国庆节顺延）；11月16日；12月15日。',
      '遇法定节假日的，以税务机关公布的调整后期限为准。季度申报在4月、7月、10月及次年1月征期内完成。',
      '企业所得税年度汇算清缴截止日为5月31日；个人所得税综合所得汇算清缴期为3月1日至6月30日。',
    ].join('\n\n'),
    publishedAt: new Date('2026-01-05T01:00:00Z'),
  },
  {
    kind: 'lecture',
    category: '企业所得税',
    title: '企业所得税汇算清缴实务讲座',
    summary: '国家税务总局12366纳税服务平台的政策解读课程：收入确认、扣除项目与纳税调整。',
    source: 'link',
    videoUrl: 'https://12366.chinatax.gov.cn/',
    durationSec: 5400,
    publishedAt: new Date('2026-10-10T01:00:00Z'),
  },
  {
    kind: 'lecture',
    category: '增值税',
    title: '小规模纳税人增值税优惠政策解读',
    summary: '月销售额10万元以下免征、征收率1%等政策的适用条件与申报表填写。',
    source: 'link',
    videoUrl: 'https://www.chinatax.gov.cn/',
    durationSec: 3600,
    publishedAt: new Date('2026-09-20T01:00:00Z'),
  },
  {
    kind: 'lecture',
    category: '个人所得税',
    title: '综合所得年度汇算：代扣代缴与专项附加扣除',
    summary: '扣缴义务人如何做好全员全额申报，以及年度汇算中常见的补退税问题。',
    source: 'link',
    videoUrl: 'https://12366.chinatax.gov.cn/',
    durationSec: 2700,
    publishedAt: new Date('2026-08-15T01:00:00Z'),
  },
  {
    kind: 'video',
    category: '财务会计',
    title: '月末结账与财务报表：十分钟看懂',
    summary: '凭证审核、期末结转、试算平衡到资产负债表和利润表的生成顺序。',
    source: 'link',
    videoUrl: 'https://www.chinatax.gov.cn/',
    durationSec: 600,
    publishedAt: new Date('2026-07-01T01:00:00Z'),
  },
];

export async function seedContentDemo(db: Db) {
  await db
    .insert(contentItems)
    .values(
      DEMO_CONTENT.map((c, i) => ({ ...c, sortOrder: i + 1, published: true, watchCount: 20 + ((i * 37) % 90) })),
    );
}
