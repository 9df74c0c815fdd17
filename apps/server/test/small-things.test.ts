// Small things a new user meets (issue 29 point 7): a 商机 for a company already in the pipeline warns
// first, the 商机 form's refusals name 商机来源, `npm start` explains a port clash instead of EADDRINUSE,
// and a contract line whose service item has no linked template still starts a work order.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import {
  CODE,
  getOppSettingCall,
  OPP_MSG,
  type OppDuplicateRefusal,
  type OppSetting,
  oppListCall,
  saveOppCall,
  WO_MSG,
  woAddCall,
  woByIdCall,
  woServiceCall,
} from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script without types
import { PORT_MSG, planPorts } from '../../../scripts/start-ports.mjs';
import { startTestApp, type TestApp } from './harness.js';
import { ADMIN, LI, OTHER_ADMIN, ZHANG } from './staff-helpers.js';

type Plan = { error?: string; simPort?: number | null; note?: string | null };
const plan = planPorts as (
  env: Record<string, string>,
  state?: (port: number, host: string) => Promise<true | string>,
  free?: () => Promise<number>,
) => Promise<Plan>;
const MSG = PORT_MSG as Record<string, (...a: unknown[]) => string>;

let t: TestApp;
let admin: string;
let li: string;
let zhang: string;
let other: string;
let setting: OppSetting;

beforeAll(async () => {
  t = await startTestApp();
  [admin, li, zhang, other] = await Promise.all([t.login(ADMIN), t.login(LI), t.login(ZHANG), t.login(OTHER_ADMIN)]);
  setting = (await t.call<OppSetting>(getOppSettingCall.path, {}, admin)).data;
});
afterAll(() => t.close());

const form = (companyName: string, extra: Record<string, unknown> = {}) => ({
  companyName,
  contactName: '钱重复',
  phone: '13977778888',
  source: '电话咨询',
  ...extra,
});

describe('商机: a company already in the pipeline warns first', () => {
  it('refuses a second one for the same company with the existing one, and saves it once confirmed', async () => {
    const first = await t.call<{ id: number }>(saveOppCall.path, form('杭州（重复）测试科技有限公司'), li);
    expect(first.code).toBe(CODE.OK);

    // The same company written with ASCII brackets and a space, by a colleague who cannot see 李晓梅's.
    const again = await t.call<OppDuplicateRefusal>(saveOppCall.path, form('杭州(重复) 测试科技有限公司'), zhang);
    expect(again.code).toBe(CODE.CONFLICT);
    expect(again.msg).toBe(OPP_MSG.duplicate('杭州（重复）测试科技有限公司'));
    expect(again.msg).toContain('该企业已有商机');
    expect(again.data.duplicates).toEqual([
      expect.objectContaining({
        id: first.data.id,
        companyName: '杭州（重复）测试科技有限公司',
        stageName: '初步接触',
        ownerName: '李晓梅',
        inPool: false,
        converted: false,
        canOpen: false,
      }),
    ]);
    // Nothing was saved by the refused call.
    const rows = await t.ownerQuery<{ n: number }>(
      "select count(*)::int as n from opportunities where agency_id = 1 and company_name like '杭州%重复%测试科技有限公司'",
    );
    expect(rows[0]?.n).toBe(1);

    // The administrator is warned too, and may open the existing one.
    const seen = await t.call<OppDuplicateRefusal>(saveOppCall.path, form('杭州（重复）测试科技有限公司'), admin);
    expect(seen.code).toBe(CODE.CONFLICT);
    expect(seen.data.duplicates[0]).toMatchObject({ id: first.data.id, canOpen: true });

    // Continuing after the warning saves it.
    const confirmed = await t.call<{ id: number }>(
      saveOppCall.path,
      form('杭州(重复) 测试科技有限公司', { confirmDuplicate: true }),
      zhang,
    );
    expect(confirmed.code).toBe(CODE.OK);
    const mine = await t.call<{ list: { id: number }[] }>(oppListCall.path, { keyword: '重复' }, zhang);
    expect(mine.data.list.map((o) => o.id)).toEqual([confirmed.data.id]);

    // Editing one of them does not warn; another agency's same name does not either.
    const edit = await t.call(
      saveOppCall.path,
      form('杭州（重复）测试科技有限公司', { id: first.data.id, remark: '改备注' }),
      li,
    );
    expect(edit.code).toBe(CODE.OK);
    expect((await t.call(saveOppCall.path, form('杭州（重复）测试科技有限公司'), other)).code).toBe(CODE.OK);
  });

  it('a lost opportunity does not count: the company may be tried again without a warning', async () => {
    const lost = setting.stages.find((s) => s.kind === 'lost');
    expect(lost).toBeDefined();
    const r = await t.call(saveOppCall.path, form('输单后重来测试有限公司', { stageId: lost?.id }), li);
    expect(r.code).toBe(CODE.OK);
    expect((await t.call(saveOppCall.path, form('输单后重来测试有限公司'), li)).code).toBe(CODE.OK);
  });
});

describe('商机: the form names 商机来源', () => {
  it('a missing or unknown source is refused as 商机来源, not the glossary’s general 来源', async () => {
    const { source: _s, ...noSource } = form('来源测试有限公司');
    const missing = await t.call(saveOppCall.path, noSource, li);
    expect(missing).toMatchObject({ code: CODE.BAD_REQUEST, msg: '商机来源：请选择商机来源' });
    const unknown = await t.call(saveOppCall.path, form('来源测试有限公司', { source: '路边捡的' }), li);
    expect(unknown).toMatchObject({ code: CODE.BAD_REQUEST, msg: '商机来源：请选择商机来源' });
  });
});

describe('npm start: ports explained before anything starts', () => {
  const listening = (port = 0) =>
    new Promise<Server>((ok) => {
      const srv = createServer();
      srv.listen(port, '127.0.0.1', () => ok(srv));
    });
  const portOf = (srv: Server) => (srv.address() as { port: number }).port;
  /** scripts/start.mjs with this environment: its exit code and what it printed (it exits before spawning). */
  const start = (env: Record<string, string>) =>
    new Promise<{ code: number | null; out: string }>((ok) => {
      const child = spawn(process.execPath, [resolve(import.meta.dirname, '../../../scripts/start.mjs')], {
        env: { PATH: process.env.PATH ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => {
        out += String(d);
      });
      child.stderr.on('data', (d) => {
        out += String(d);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        ok({ code, out });
      });
    });

  it('PORT and TAX_SIM_PORT the same: refused in Chinese and English, nothing started', async () => {
    const r = await start({ PORT: '8493', TAX_SIM_PORT: '8493', DATA_DIR: '/tmp/dzy-small-things-none' });
    expect(r.code).toBe(1);
    expect(r.out).toContain('PORT 和 TAX_SIM_PORT 都是 8493');
    expect(r.out).toContain('PORT and TAX_SIM_PORT are both 8493');
    expect(r.out).not.toContain('EADDRINUSE');
  });

  it('PORT in use by another program: refused with what to do, in both languages', async () => {
    const srv = await listening();
    try {
      const port = portOf(srv);
      const r = await start({ PORT: String(port), TAX_BUREAU_URL: 'http://127.0.0.1:9' });
      expect(r.code).toBe(1);
      expect(r.out).toContain(`端口 ${port} 已被其他程序占用，代账云无法启动`);
      expect(r.out).toContain(`Port ${port} is already in use by another program`);
      expect(r.out).not.toContain('EADDRINUSE');
    } finally {
      await new Promise((ok) => srv.close(ok));
    }
  });

  it('PORT on the default bureau port moves the bureau, and says so', async () => {
    const p = await plan(
      { PORT: '8090' },
      async () => true,
      async () => 45_001,
    );
    expect(p).toEqual({ simPort: 45_001, note: MSG.simMoved?.(8090, 45_001, 'product') });
    expect(p.note).toContain('模拟电子税务局改用端口 45001');
    expect(p.note).toContain('the simulated e-tax bureau uses port 45001 instead');
  });

  it('a bureau port taken by another program moves the bureau; free ports are kept', async () => {
    const busy = async (port: number) => (port === 8091 ? 'EADDRINUSE' : true);
    expect(await plan({ PORT: '8480', TAX_SIM_PORT: '8091' }, busy, async () => 45_002)).toMatchObject({
      simPort: 45_002,
    });
    expect(await plan({ PORT: '8480', TAX_SIM_PORT: '8491' }, busy, async () => 45_003)).toEqual({
      simPort: 8491,
      note: null,
    });
    // A bureau of its own (TAX_BUREAU_URL): no simulator port at all.
    expect(await plan({ PORT: '8480', TAX_BUREAU_URL: 'http://bureau' }, busy)).toEqual({ simPort: null, note: null });
    expect((await plan({ PORT: 'abc' })).error).toContain('PORT=abc 不是有效的端口号');
  });
});

describe('合同 → 工单: every line of a contract can start its work order', () => {
  it('a line whose service item has no linked template starts one with a chosen template, once', async () => {
    const [line] = await t.ownerQuery<{ id: number; contract_id: number; enterprise_id: number }>(
      `select cl.id, c.id as contract_id, c.enterprise_id from contract_lines cl
         join contracts c on c.id = cl.contract_id
         join enterprises e on e.id = c.enterprise_id
         left join work_order_template_services ts on ts.service_id = cl.service_id
       where c.agency_id = 1 and c.htzt in ('1', '2') and e.deleted_at is null and ts.template_id is null
         and not exists (select 1 from work_orders w where w.contract_line_id = cl.id)
       order by cl.id limit 1`,
    );
    const [tpl] = await t.ownerQuery<{ id: number; name: string }>(
      `select t.id, t.name from work_order_templates t where t.agency_id = 1 and t.status = '1'
         and exists (select 1 from work_order_template_steps s where s.template_id = t.id) order by t.id limit 1`,
    );
    expect(line).toBeDefined();
    expect(tpl).toBeDefined();
    if (!line || !tpl) return;
    const before = await t.call<{ lineId: number; templateId: number | null; workOrderId: number | null }[]>(
      woServiceCall.path,
      { contractId: line.contract_id },
      admin,
    );
    expect(before.data.find((l) => l.lineId === line.id)).toMatchObject({ templateId: null, workOrderId: null });

    // Without a template the line says what to do.
    expect(await t.call(woAddCall.path, { contractLineId: line.id }, admin)).toMatchObject({
      code: CODE.BAD_REQUEST,
      msg: WO_MSG.lineNoTemplate,
    });
    const made = await t.call<{ id: number; orderNo: string }>(
      woAddCall.path,
      { contractLineId: line.id, templateId: tpl.id },
      admin,
    );
    expect(made.code).toBe(CODE.OK);
    const d = await t.call<{ enterpriseId: number; templateName: string; contractNo: string }>(
      woByIdCall.path,
      { id: made.data.id },
      admin,
    );
    expect(d.data).toMatchObject({ enterpriseId: line.enterprise_id, templateName: tpl.name });
    expect(d.data.contractNo).toMatch(/^HT/);
    const after = await t.call<{ lineId: number; workOrderId: number | null; orderNo: string }[]>(
      woServiceCall.path,
      { contractId: line.contract_id },
      admin,
    );
    expect(after.data.find((l) => l.lineId === line.id)).toMatchObject({
      workOrderId: made.data.id,
      orderNo: made.data.orderNo,
    });
    expect(await t.call(woAddCall.path, { contractLineId: line.id, templateId: tpl.id }, admin)).toMatchObject({
      code: CODE.CONFLICT,
      msg: WO_MSG.lineTaken,
    });
  });
});
