import { CUSTOMER_MSG, checkMobile, checkTaxNumber, qyshWarning, stripSpaces } from '@dzy/shared';
import { regionCities, regionCounties, regionProvinces } from '../org/regions.js';

/** One data row of the import file: its line in the sheet and the cells in IMPORT_COLUMNS order. */
export interface SheetRow {
  line: number;
  cells: string[];
}

/** A row ready to insert. */
export interface ImportValues {
  qymc: string;
  qysh: string;
  qyxz: '0' | '1';
  sssf: string;
  ssds: string;
  ssqx: string;
  address: string;
  fjh: string;
  gradeId: number | null;
  labelIds: number[];
  allocateUser: number;
  contactName: string;
  contactMobile: string;
  remark: string;
}

export type PlannedRow =
  | { line: number; cells: string[]; status: 'ok'; values: ImportValues; warning: string | null }
  | { line: number; cells: string[]; status: 'fail' | 'skip'; reason: string };

/** What the rows are checked against: the book and the agency's dictionaries, read once. */
export interface ImportLookups {
  /**
   * Tax numbers already in the book or the recycle bin → the enterprise's name, and whether the importer
   * may see it (the reason names it only then).
   */
  existing: Map<string, { qymc: string; deleted: boolean; visible: boolean }>;
  grades: Map<string, number>;
  labels: Map<string, number>;
  /** Members by phone → user id. */
  members: Map<string, number>;
  importer: number;
  /** Whether the importer may give enterprises to others (customer:assign). */
  canAssign: boolean;
  /** Enterprises that may still be added under the licence; null is unlimited. */
  room: number | null;
}

const QYXZ: Record<string, '0' | '1'> = {
  '': '1',
  '0': '0',
  '1': '1',
  一般纳税人: '0',
  小规模纳税人: '1',
  小规模: '1',
};

const provinceByName = new Map(regionProvinces().map((p) => [p.name, p.code]));

/** Province, city and county names → codes of one real chain; null when they do not form one. */
export function regionCodes(p: string, c: string, d: string): { sssf: string; ssds: string; ssqx: string } | null {
  if (!p && !c && !d) return { sssf: '', ssds: '', ssqx: '' };
  const sssf = provinceByName.get(p);
  if (!sssf) return null;
  const cities = regionCities(sssf) ?? [];
  // A municipality's only city is 市辖区: its name may be given as the municipality's own.
  const city = cities.find((x) => x.name === c) ?? (cities.length === 1 && c === p ? cities[0] : undefined);
  if (!city) return null;
  const county = (regionCounties(city.code) ?? []).find((x) => x.name === d);
  if (!county) return null;
  return { sssf, ssds: city.code, ssqx: county.code };
}

const splitList = (v: string) =>
  v
    .split(/[,，、;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Checks every row (required fields, tax number rules, duplicates in the file and against the book,
 * dictionaries, owner) and then the licence: rows past it are 未导入. Pure: the same input, the same plan.
 */
export function planImport(rows: readonly SheetRow[], lk: ImportLookups): PlannedRow[] {
  const firstLine = new Map<string, number>();
  const out: PlannedRow[] = [];
  let room = lk.room;
  for (const { line, cells } of rows) {
    const [qymcRaw = '', qyshRaw = '', qyxzRaw = '', p = '', c = '', d = '', address = '', fjh = ''] = cells;
    const [, , , , , , , , grade = '', labelText = '', ownerPhone = '', contactName = '', contactMobile = ''] = cells;
    const remark = cells[13] ?? '';
    const fail = (reason: string) => out.push({ line, cells, status: 'fail', reason });
    const qymc = qymcRaw.trim();
    const qysh = stripSpaces(qyshRaw).toUpperCase();
    if (!qymc) {
      fail('请填写企业名称');
      continue;
    }
    if (qymc.length > 100) {
      fail('企业名称不能超过100个字符');
      continue;
    }
    const taxMsg = checkTaxNumber(qysh);
    if (taxMsg) {
      fail(taxMsg === '请输入税号' ? '请填写企业税号' : CUSTOMER_MSG.taxDialog);
      continue;
    }
    const earlier = firstLine.get(qysh);
    if (earlier !== undefined) {
      fail(`与第${earlier}行的税号重复`);
      continue;
    }
    firstLine.set(qysh, line);
    const inBook = lk.existing.get(qysh);
    if (inBook) {
      fail(
        !inBook.visible
          ? CUSTOMER_MSG.duplicateHidden
          : inBook.deleted
            ? CUSTOMER_MSG.duplicateInBin(inBook.qymc)
            : CUSTOMER_MSG.duplicate(inBook.qymc),
      );
      continue;
    }
    const qyxz = QYXZ[qyxzRaw.trim()];
    if (!qyxz) {
      fail('企业性质须为一般纳税人或小规模纳税人');
      continue;
    }
    const region = regionCodes(p.trim(), c.trim(), d.trim());
    if (!region) {
      fail('所属地区有误：请填写完整且正确的省、市、区县名称');
      continue;
    }
    if (address.length > 200) {
      fail('详细地址不能超过200个字符');
      continue;
    }
    if (!/^\d{0,4}$/.test(fjh.trim())) {
      fail('开票分机号为0-4位数字');
      continue;
    }
    let gradeId: number | null = null;
    if (grade.trim()) {
      gradeId = lk.grades.get(grade.trim()) ?? null;
      if (gradeId === null) {
        fail(`客户等级不存在：${grade.trim()}`);
        continue;
      }
    }
    const labelNames = splitList(labelText);
    const missingLabel = labelNames.find((n) => !lk.labels.has(n));
    if (missingLabel) {
      fail(`标签不存在：${missingLabel}`);
      continue;
    }
    if (labelNames.length > 10) {
      fail('每家企业最多10个标签');
      continue;
    }
    let allocateUser = lk.importer;
    const phone = ownerPhone.replace(/\D/g, '');
    if (phone) {
      const member = lk.members.get(phone);
      if (member === undefined) {
        fail('负责人手机号不是本机构成员');
        continue;
      }
      if (member !== lk.importer && !lk.canAssign) {
        fail('您没有分配客户的权限，负责人请留空');
        continue;
      }
      allocateUser = member;
    }
    const mobile = contactMobile.replace(/\s/g, '');
    if (mobile && checkMobile(mobile)) {
      fail('联系人手机：请输入正确的手机号');
      continue;
    }
    if (mobile && !contactName.trim()) {
      fail('请填写联系人姓名');
      continue;
    }
    if (contactName.trim().length > 20) {
      fail('联系人姓名不能超过20个字符');
      continue;
    }
    if (remark.length > 500) {
      fail('备注不能超过500个字符');
      continue;
    }
    if (room !== null) {
      if (room <= 0) {
        out.push({ line, cells, status: 'skip', reason: '超出授权客户数，未导入' });
        continue;
      }
      room -= 1;
    }
    out.push({
      line,
      cells,
      status: 'ok',
      warning: qyshWarning(qysh),
      values: {
        qymc,
        qysh,
        qyxz,
        ...region,
        address: address.trim(),
        fjh: fjh.trim(),
        gradeId,
        labelIds: [...new Set(labelNames.map((n) => lk.labels.get(n) as number))],
        allocateUser,
        contactName: contactName.trim(),
        contactMobile: mobile,
        remark: remark.trim(),
      },
    });
  }
  return out;
}
