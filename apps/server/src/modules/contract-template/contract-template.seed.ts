import { yuanToFen } from '@dzy/shared';
import type { Db } from '../../db/client.js';
import { contractTemplateLines, contractTemplates, serviceItems } from '../../db/schema/index.js';

/** name, short name, job type, unit price (yuan), enabled. */
const DEMO_SERVICES: [string, string, string, string, '0' | '1'][] = [
  ['记账报税', '记账', '1', '300.00', '1'],
  ['零申报', '零报', '2', '100.00', '1'],
  ['工商年报', '年报', '3', '200.00', '1'],
  ['社保代缴', '社保', '4', '150.00', '1'],
  ['个税申报', '个税', '5', '50.00', '1'],
  ['工资核算', '工资', '5', '200.00', '1'],
  ['代开发票', '开票', '6', '80.00', '1'],
  ['税务咨询', '咨询', '7', '500.00', '1'],
  ['汇算清缴', '汇缴', '2', '800.00', '1'],
  ['工商变更', '变更', '3', '600.00', '0'],
];

/** name, description, lines: [service name, isGive, price, discount]. */
const DEMO_TEMPLATES: [string, string, [string, 0 | 1, string, string][]][] = [
  [
    '小规模全年',
    '小规模纳税人全年记账报税',
    [
      ['记账报税', 0, '3600.00', '600.00'],
      ['工商年报', 1, '200.00', '200.00'],
    ],
  ],
  [
    '一般纳税人',
    '一般纳税人全年服务',
    [
      ['记账报税', 0, '7200.00', '0.00'],
      ['个税申报', 0, '600.00', '0.00'],
      ['汇算清缴', 0, '800.00', '100.00'],
    ],
  ],
  ['零申报套餐', '无业务的小规模企业', [['零申报', 0, '1200.00', '200.00']]],
  [
    '社保代缴',
    '按年收取的社保代缴',
    [
      ['社保代缴', 0, '1800.00', '0.00'],
      ['工资核算', 0, '2400.00', '400.00'],
    ],
  ],
  ['开票服务', '', [['代开发票', 0, '960.00', '0.00']]],
  [
    '全能套餐',
    '记账、社保、个税与咨询一站式',
    [
      ['记账报税', 0, '3600.00', '0.00'],
      ['社保代缴', 0, '1800.00', '300.00'],
      ['个税申报', 1, '600.00', '0.00'],
      ['税务咨询', 0, '6000.00', '1000.00'],
    ],
  ],
];

/** Demo service items and templates: the full set for the demo agency, a small one for the other agency. */
export async function seedContractTemplateDemo(db: Db, agencies: readonly number[]) {
  for (const [n, agencyId] of agencies.entries()) {
    const services = n === 0 ? DEMO_SERVICES : DEMO_SERVICES.slice(0, 3);
    const rows = await db
      .insert(serviceItems)
      .values(
        services.map(([serviceName, serviceBriName, jobType, price, serviceStatic], i) => ({
          agencyId,
          serviceName,
          serviceBriName,
          jobType,
          priceFen: yuanToFen(price),
          serviceStatic,
          sort: i + 1,
        })),
      )
      .returning({ id: serviceItems.id, name: serviceItems.serviceName });
    const byName = new Map(rows.map((r) => [r.name, r.id]));
    const templates = n === 0 ? DEMO_TEMPLATES : DEMO_TEMPLATES.slice(0, 1);
    for (const [i, [tempName, tempIllustration, lines]] of templates.entries()) {
      const fen = lines.map(([name, isGive, price, discount]) => ({
        serviceId: byName.get(name) ?? 0,
        isGive,
        priceFen: yuanToFen(price),
        discountFen: yuanToFen(discount),
      }));
      const [tpl] = await db
        .insert(contractTemplates)
        .values({
          agencyId,
          tempName,
          tempIllustration,
          tempTotalPriceFen: fen.reduce((s, l) => s + l.priceFen - l.discountFen, 0),
          // One switched off and one already configured, so the list shows every state.
          tempStatic: i === 4 ? '0' : '1',
          isVerifySet: i === 0 ? '1' : '',
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        })
        .returning({ id: contractTemplates.id });
      if (!tpl) throw new Error(`template ${tempName} not created`);
      await db.insert(contractTemplateLines).values(
        fen.map((l, sort) => ({
          agencyId,
          templateId: tpl.id,
          sort: sort + 1,
          ...l,
          nowPriceFen: l.priceFen - l.discountFen,
        })),
      );
    }
  }
}
