import {
  CODE,
  CONTRACT_TEMPLATE_FILES,
  serviceItemSaveCall,
  TEMPLATE_IMPORT_COLUMNS,
  type TemplateImportResult,
  templatePageCall,
} from '@dzy/shared';
import ExcelJS from 'exceljs';
import { inScope } from '../../apps/server/src/db/client.js';
import { templatePage } from '../../apps/server/src/modules/contract-template/contract-template.repo.js';
import { type BenchEnv, defineScenario, expectThat } from '../scenario.js';

const TEMPLATES = 500;
const BAD = 20;
const SERVICES = ['记账报税', '工商年报', '社保代缴', '个税申报'];

/** 500 templates of two lines each (1,000 rows); every 25th template has a bad amount. */
async function importFile(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('合同模板');
  ws.addRow([...TEMPLATE_IMPORT_COLUMNS]);
  for (let i = 1; i <= TEMPLATES; i++) {
    const bad = i % (TEMPLATES / BAD) === 0;
    ws.addRow([`基准模板${i}`, `基准导入第${i}个`, SERVICES[i % 4], '否', bad ? '1.234' : `${i}00.00`, '0']);
    ws.addRow([`基准模板${i}`, '', SERVICES[(i + 1) % 4], '是', '200.00', '200.00']);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(env: BenchEnv, cookie: string, file: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)]), 'htmb.xlsx');
  const t0 = performance.now();
  const res = await fetch(`${env.baseUrl}/api/${CONTRACT_TEMPLATE_FILES.templateImport}`, {
    method: 'POST',
    headers: { cookie, 'sec-fetch-site': 'same-origin' },
    body: form,
  });
  const json = (await res.json()) as { code: number; msg: string; data: TemplateImportResult };
  expectThat(json.code === CODE.OK, `template import answered ${json.code} ${json.msg}`);
  return { result: json.data, ms: performance.now() - t0 };
}

/** Page 1 of the template list: the code selectTemplatePage runs (count, page ids, rows, their lines). */
const pageSql = (env: BenchEnv) =>
  inScope(env.db.app, { agencyId: env.data.agencyId, userId: env.data.adminId, kjgcId: null }, async (tx) => {
    const page = await templatePage(tx, env.data.agencyId, { pageNo: 1, pageSize: 10, tempName: '' });
    if (Number(page.total) < TEMPLATES - BAD || page.list.length !== 10) throw new Error('template page is wrong');
    return page.list;
  });

// The import of 500 templates measured once as new templates and once as same-name updates; then the
// template list (which reads every page's lines) over the imported templates, API against SQL.
export default defineScenario({
  name: 'template import 500',
  title: `upload ${CONTRACT_TEMPLATE_FILES.templateImport} ×2 (add, then update) | API and SQL: template list page 1`,
  async prepare(env) {
    const cookie = await env.login(env.data.adminPhone);
    for (const [i, serviceName] of SERVICES.entries()) {
      const r = await env.call(
        serviceItemSaveCall.path,
        { serviceName, jobType: String(i + 1), price: '100.00' },
        cookie,
      );
      expectThat(r.code === CODE.OK || r.code === CODE.CONFLICT, `service item ${serviceName}: ${r.code}`);
    }
    const file = await importFile();
    const first = await upload(env, cookie, file);
    expectThat(
      first.result.successNum === TEMPLATES - BAD && first.result.failNum === BAD,
      `first import gave ${JSON.stringify(first.result)}`,
    );
    const second = await upload(env, cookie, file);
    expectThat(second.result.successNum === TEMPLATES - BAD, `second import gave ${JSON.stringify(second.result)}`);
    await pageSql(env);
    return {
      api: {
        method: 'POST',
        path: `/api/${templatePageCall.path}`,
        headers: { cookie, 'sec-fetch-site': 'same-origin' },
        body: { pageNo: 1, pageSize: 10 },
      },
      sql: () => pageSql(env),
      notes: [
        `import of ${TEMPLATES} templates / ${TEMPLATES * 2} rows (${(file.length / 1024).toFixed(0)} KB, ${BAD} bad): ` +
          `as new ${(first.ms / 1000).toFixed(1)} s, as same-name updates ${(second.ms / 1000).toFixed(1)} s ` +
          `(read, check, write and failure file, one request)`,
      ],
    };
  },
});
