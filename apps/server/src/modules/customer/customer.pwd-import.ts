import { DLFS_OPTIONS, SFBM_OPTIONS, stripSpaces } from '@dzy/shared';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { enterprises } from '../../db/schema/index.js';
import type { SessionCtx } from '../../plugins/session.js';
import { customerWhere } from './customer.repo.js';
import { credentialColumns, normQysh } from './customer.service.js';

/**
 * The two password imports (账号密码 importPassword, 税局密码 importShuiJuPassword), row by row. They run
 * as jobs of the customer-import queue (customer.jobs.ts), a batch per transaction: duplicates are judged
 * against the whole file (firstLines), so a batch gives the same answer whether or not the job was resumed.
 */
export type PwdKind = 'password' | 'shuiju';

export interface PwdFailure {
  line: number;
  qysh: string;
  reason: string;
}

export const SFBM_BY_TEXT = new Map<string, string>(
  SFBM_OPTIONS.flatMap((o) => [
    [o.value, o.value],
    [o.label, o.value],
  ]),
);
const DLFS_BY_TEXT = new Map<string, string>(
  DLFS_OPTIONS.flatMap((o) => [
    [o.value, o.value],
    [o.label, o.value],
  ]),
);

const qyshOf = (cells: string[]) => normQysh(stripSpaces(cells[0] ?? ''));

/** Each tax number's first line in the file: a later line with it is a duplicate. */
export function firstLines(rows: readonly { line: number; cells: string[] }[]): Map<string, number> {
  const first = new Map<string, number>();
  for (const r of rows) {
    const q = qyshOf(r.cells);
    if (q && !first.has(q)) first.set(q, r.line);
  }
  return first;
}

type Cols = ReturnType<typeof credentialColumns>;

/** The columns one 账号密码 row sets, or why it is refused. */
function passwordRow(key: Buffer, cells: string[]): Cols | string {
  const [, dlzh = '', pass = '', sfbmText = '', dlfsText = '', dlId = '', dlPass = ''] = cells;
  const [, , , , , , , reportPass = '', agentAcc = '', agentPass = '', agentQyshRaw = ''] = cells;
  const sfbm = sfbmText.trim() ? SFBM_BY_TEXT.get(sfbmText.trim()) : undefined;
  if (sfbmText.trim() && !sfbm) return '登录身份有误';
  const dlfs = dlfsText.trim() ? DLFS_BY_TEXT.get(dlfsText.trim()) : undefined;
  if (dlfsText.trim() && !dlfs) return '个税登录方式须为1或2';
  const agentQysh = stripSpaces(agentQyshRaw);
  if (agentQysh && !/^[A-Za-z0-9]{6,20}$/.test(agentQysh)) return '代理机构税号为6-20位数字或字母';
  const tooLong =
    [dlzh, dlId, agentAcc].some((v) => v.length > 50) ||
    [pass, dlPass, reportPass, agentPass].some((v) => v.length > 64);
  if (tooLong) return '账号不能超过50个字符，密码不能超过64个字符';
  const given = (v: string) => (v.trim() ? v.trim() : undefined);
  const cols = credentialColumns(key, {
    xdzswj_dlzh: given(dlzh),
    xdzswj_pass: given(pass),
    xdzswj_sfbm: sfbm as '1' | undefined,
    dlfs: dlfs as '1' | undefined,
    dl_id: given(dlId),
    dl_password: given(dlPass),
    report_password: given(reportPass),
    agent_login_account: given(agentAcc),
    agent_login_password: given(agentPass),
    agent_login_qysh: agentQysh || undefined,
  });
  return Object.keys(cols).length === 0 ? '没有要导入的账号或密码' : cols;
}

/** The columns one 税局密码 row sets (the e-tax login only), or why it is refused. */
function shuiJuRow(key: Buffer, cells: string[]): Cols | string {
  const [, , sfbmText = '', account = '', pass = ''] = cells;
  const sfbm = sfbmText.trim() ? SFBM_BY_TEXT.get(sfbmText.trim()) : undefined;
  if (sfbmText.trim() && !sfbm) return '登录身份有误';
  if (account.trim().length > 50 || pass.trim().length > 64) return '账号不能超过50个字符，密码不能超过64个字符';
  if (!account.trim() || !pass.trim()) return '请填写电子税务局账号和密码';
  return credentialColumns(key, {
    xdzswj_dlzh: account.trim(),
    xdzswj_pass: pass.trim(),
    xdzswj_sfbm: sfbm as '1' | undefined,
  });
}

/** Applies one batch of a password file: rows matched by tax number among the clients the importer sees. */
export async function applyPasswordBatch(
  tx: Tx,
  kind: PwdKind,
  secretKey: Buffer,
  scope: SessionCtx & { agencyId: number },
  rows: readonly { line: number; cells: string[] }[],
  first: ReadonlyMap<string, number>,
): Promise<{ successNum: number; failed: PwdFailure[] }> {
  const wanted = [...new Set(rows.map((r) => qyshOf(r.cells)).filter(Boolean))];
  const found = new Map<string, number>();
  if (wanted.length > 0) {
    const hits = await tx
      .select({ id: enterprises.id, qysh: enterprises.qysh })
      .from(enterprises)
      .where(
        and(customerWhere(scope, scope.agencyId, {}), ne(enterprises.qysh, ''), inArray(enterprises.qysh, wanted)),
      );
    for (const h of hits) found.set(h.qysh, h.id);
  }
  const failed: PwdFailure[] = [];
  let successNum = 0;
  for (const { line, cells } of rows) {
    const qysh = qyshOf(cells);
    const fail = (reason: string) => failed.push({ line, qysh: cells[0] ?? '', reason });
    if (!qysh) {
      fail('请填写企业税号');
      continue;
    }
    if (first.get(qysh) !== line) {
      fail('文件中该税号重复');
      continue;
    }
    const id = found.get(qysh);
    if (id === undefined) {
      fail('未找到该税号的客户，或您无权访问');
      continue;
    }
    const cols = kind === 'shuiju' ? shuiJuRow(secretKey, cells) : passwordRow(secretKey, cells);
    if (typeof cols === 'string') {
      fail(cols);
      continue;
    }
    await tx
      .update(enterprises)
      .set({ ...cols, updatedAt: new Date() })
      .where(eq(enterprises.id, id));
    successNum += 1;
  }
  return { successNum, failed };
}
