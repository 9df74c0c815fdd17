import {
  AMOUNT_RE,
  checkContractAmount,
  JOB_TYPES,
  SERVICE_BRI_NAME_MAX,
  SERVICE_MSG,
  SERVICE_NAME_MAX,
  TEMPLATE_DESC_MAX,
  TEMPLATE_IMPORT_MAX,
  TEMPLATE_IMPORT_MSG,
  TEMPLATE_LINES_MAX,
  TEMPLATE_MSG,
  TEMPLATE_NAME_MAX,
  yuanToFen,
} from '@dzy/shared';
import type { LineFen, TemplateInput } from './contract-template.service.js';

export interface SheetRow {
  line: number;
  cells: string[];
}

export interface FailedRow {
  line: number;
  cells: string[];
  reason: string;
}

export interface ServiceRef {
  id: number;
  serviceStatic: '0' | '1';
}

const GIVE: Record<string, 0 | 1> = { '': 0, 否: 0, '0': 0, 是: 1, '1': 1 };

/**
 * Plans a template import without writing: rows grouped by template name (row order kept); a
 * template with any bad row is refused as a whole and all its rows go to the failure list, so that
 * nothing of it is half-written. Names beyond the 500th are not imported (unExport).
 */
export function planTemplateImport(
  rows: readonly SheetRow[],
  services: ReadonlyMap<string, ServiceRef>,
  existing: ReadonlyMap<string, number>,
) {
  const groups = new Map<string, SheetRow[]>();
  const failed: FailedRow[] = [];
  for (const r of rows) {
    const name = (r.cells[0] ?? '').trim();
    if (!name) {
      failed.push({ ...r, reason: TEMPLATE_MSG.nameRequired });
      continue;
    }
    const g = groups.get(name);
    if (g) g.push(r);
    else groups.set(name, [r]);
  }
  let failNum = failed.length;
  const items: (TemplateInput & { existingId?: number })[] = [];
  const skipped: FailedRow[] = [];
  let index = 0;
  for (const [name, group] of groups) {
    index += 1;
    if (index > TEMPLATE_IMPORT_MAX) {
      skipped.push(...group.map((r) => ({ ...r, reason: TEMPLATE_IMPORT_MSG.overLimit })));
      continue;
    }
    const reasons = new Map<number, string>();
    const lines: LineFen[] = [];
    const seen = new Set<number>();
    const description = group.map((r) => (r.cells[1] ?? '').trim()).find((d) => d !== '') ?? '';
    for (const r of group) {
      const [, desc = '', serviceName = '', giveText = '', priceText = '', discountText = ''] = r.cells.map((c) =>
        c.trim(),
      );
      const fail = (reason: string) => reasons.set(r.line, reason);
      if (name.length > TEMPLATE_NAME_MAX) fail(TEMPLATE_MSG.nameTooLong);
      else if (desc.length > TEMPLATE_DESC_MAX) fail(TEMPLATE_MSG.descTooLong);
      else if (!serviceName) fail('请填写服务项目');
      else {
        const svc = services.get(serviceName);
        const give = GIVE[giveText];
        const discount = discountText === '' ? '0' : discountText;
        const priceMsg = checkContractAmount(priceText);
        const discountMsg = checkContractAmount(discount);
        if (!svc) fail(`服务项目不存在：${serviceName}`);
        else if (svc.serviceStatic !== '1') fail(`服务项目已停用：${serviceName}`);
        else if (seen.has(svc.id)) fail(TEMPLATE_MSG.serviceDuplicate);
        else if (give === undefined) fail('是否赠送请填写“是”或“否”');
        else if (priceMsg) fail(`单价：${priceMsg}`);
        else if (discountMsg) fail(`优惠：${discountMsg}`);
        else if (yuanToFen(discount) > yuanToFen(priceText)) fail(TEMPLATE_MSG.discountTooBig);
        else {
          seen.add(svc.id);
          lines.push({
            serviceId: svc.id,
            isGive: give,
            priceFen: yuanToFen(priceText),
            discountFen: yuanToFen(discount),
          });
        }
      }
    }
    if (reasons.size === 0 && lines.length > TEMPLATE_LINES_MAX) {
      for (const r of group) reasons.set(r.line, TEMPLATE_MSG.tooManyLines);
    }
    if (reasons.size > 0) {
      failNum += 1;
      for (const r of group)
        failed.push({ ...r, reason: reasons.get(r.line) ?? '同一模板的其他行有误，整个模板未导入' });
      continue;
    }
    items.push({ tempName: name, tempIllustration: description, lines, existingId: existing.get(name) });
  }
  failed.sort((a, b) => a.line - b.line);
  return { items, failed, failNum, skipped, unExport: Math.max(0, groups.size - TEMPLATE_IMPORT_MAX) };
}

const JOB_BY_TEXT = new Map<string, string>(
  JOB_TYPES.flatMap((j) => [
    [j.value, j.value],
    [j.label, j.value],
  ]),
);
const STATIC_BY_TEXT: Record<string, '0' | '1'> = { '': '1', 启用: '1', '1': '1', 停用: '0', 禁用: '0', '0': '0' };

export interface ServicePlanItem {
  serviceName: string;
  serviceBriName: string;
  jobType: string;
  priceFen: number;
  serviceStatic: '0' | '1';
  existingId?: number;
}

/** Plans a service-item import: each row on its own; the same name updates the existing item. */
export function planServiceImport(rows: readonly SheetRow[], existing: ReadonlyMap<string, number>) {
  const items: ServicePlanItem[] = [];
  const failed: FailedRow[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const [name = '', bri = '', jobText = '', price = '', staticText = ''] = r.cells.map((c) => c.trim());
    const fail = (reason: string) => failed.push({ ...r, reason });
    const jobType = JOB_BY_TEXT.get(jobText);
    const serviceStatic = STATIC_BY_TEXT[staticText];
    if (!name) fail(SERVICE_MSG.nameRequired);
    else if (name.length > SERVICE_NAME_MAX) fail(SERVICE_MSG.nameTooLong);
    else if (seen.has(name)) fail('文件中该服务名称重复');
    else if (bri.length > SERVICE_BRI_NAME_MAX) fail(SERVICE_MSG.briTooLong);
    else if (!jobType) fail(`业务类型须为：${JOB_TYPES.map((j) => j.label).join('、')}`);
    else if (!price) fail(SERVICE_MSG.priceRequired);
    else if (price.length > 10) fail(SERVICE_MSG.priceTooLong);
    else if (!AMOUNT_RE.test(price)) fail(SERVICE_MSG.pricePattern);
    else if (!serviceStatic) fail('状态请填写“启用”或“停用”');
    else {
      seen.add(name);
      items.push({
        serviceName: name,
        serviceBriName: bri,
        jobType,
        priceFen: yuanToFen(price),
        serviceStatic,
        existingId: existing.get(name),
      });
    }
  }
  return { items, failed };
}
