import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closedLoop, HttpLoad, type HttpSpec, type LoopOptions, type Summary, summarise } from './load.js';
import type { Scenario } from './scenario.js';
import {
  BENCH_ENTERPRISES,
  BENCH_STAFF,
  closeAllBenches,
  OTHER_AGENCIES,
  OTHER_ENTERPRISES,
  type RunningBench,
  startBench,
} from './setup.js';

// `npm run bench`: one fresh data set and server, then every scenario in bench/scenarios/, then a table.

interface Settings {
  seconds: number;
  warmup: number;
  concurrency: number;
  requests: number | undefined;
  only: string[];
  json: string | null;
}

function positive(name: string, fallback: number | undefined, integer = false): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!(n > 0) || (integer && !Number.isInteger(n)))
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}`);
  return n;
}

function readSettings(): Settings {
  return {
    seconds: positive('BENCH_SECONDS', 10) ?? 10,
    warmup: positive('BENCH_WARMUP', 2) ?? 2,
    concurrency: positive('BENCH_CONCURRENCY', 8, true) ?? 8,
    requests: positive('BENCH_REQUESTS', undefined, true),
    only: (process.env.BENCH_ONLY ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    json: process.env.BENCH_JSON || null,
  };
}

/** The scenarios: every `NN-name.ts` in bench/scenarios/, in file-name order. */
async function loadScenarios(only: string[]): Promise<Scenario[]> {
  const dir = join(import.meta.dirname, 'scenarios');
  const files = readdirSync(dir)
    .filter((f) => /^\d+-.+\.ts$/.test(f))
    .sort();
  const out: Scenario[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(dir, f)).href)) as { default?: Scenario };
    const s = mod.default;
    if (!s || typeof s.name !== 'string' || typeof s.prepare !== 'function') {
      throw new Error(`bench/scenarios/${f} must export default defineScenario({...})`);
    }
    if (only.length === 0 || only.some((o) => s.name.toLowerCase().includes(o))) out.push(s);
  }
  if (out.length === 0) throw new Error(`no scenario matches BENCH_ONLY=${only.join(',')}`);
  return out;
}

const progress = (line: string) => process.stderr.write(`  … ${line}\n`);

interface Row {
  label: string;
  s: Summary;
}
interface Result {
  name: string;
  title: string;
  api: Summary;
  sql: Summary;
  also: Row[];
  notes: string[];
  ratio: { p50: number; rps: number };
}

async function measureLocal(name: string, label: string, op: (i: number) => Promise<unknown>, st: Settings) {
  progress(`${name}: ${label} warm-up ${st.warmup} s`);
  await closedLoop(op, { concurrency: st.concurrency, seconds: st.warmup });
  progress(`${name}: ${label} ${st.requests ? `${st.requests} requests` : `${st.seconds} s`}`);
  return summarise(await closedLoop(op, loopOptions(st)), st.concurrency);
}

async function measureHttp(name: string, load: HttpLoad, baseUrl: string, specs: HttpSpec[], st: Settings) {
  progress(`${name}: API warm-up ${st.warmup} s`);
  await load.run({ baseUrl, specs, concurrency: st.concurrency, seconds: st.warmup });
  progress(`${name}: API ${st.requests ? `${st.requests} requests` : `${st.seconds} s`}`);
  return summarise(await load.run({ baseUrl, specs, ...loopOptions(st) }), st.concurrency);
}

const loopOptions = (st: Settings): LoopOptions =>
  st.requests
    ? { concurrency: st.concurrency, seconds: 0, requests: st.requests }
    : { concurrency: st.concurrency, seconds: st.seconds };

// --- printing --------------------------------------------------------------------------------------------

const num = (n: number, digits?: number) => {
  if (!Number.isFinite(n)) return '–';
  const d = digits ?? (n >= 100 ? 0 : n >= 10 ? 1 : 2);
  return n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
};
const times = (n: number) => (Number.isFinite(n) ? `×${num(n, n >= 10 ? 1 : n >= 1 ? 2 : 3)}` : '–');

const COLUMNS: { head: string; width: number; left?: boolean }[] = [
  { head: 'scenario', width: 16, left: true },
  { head: 'side', width: 8, left: true },
  { head: 'requests', width: 9 },
  { head: 'conc', width: 4 },
  { head: 'req/s', width: 9 },
  { head: 'p50 ms', width: 9 },
  { head: 'p95 ms', width: 9 },
  { head: 'p99 ms', width: 9 },
  { head: 'errors', width: 6 },
];

function line(cells: string[]) {
  return COLUMNS.map(({ width, left }, i) => {
    const c = cells[i] ?? '';
    return left ? c.padEnd(width) : c.padStart(width);
  })
    .join('  ')
    .trimEnd();
}

const summaryCells = (scenario: string, side: string, s: Summary) => [
  scenario,
  side,
  num(s.requests, 0),
  String(s.concurrency),
  num(s.rps),
  num(s.p50),
  num(s.p95),
  num(s.p99),
  String(s.errors),
];

function printTable(results: Result[]) {
  const [scenarioColumn, sideColumn] = COLUMNS;
  if (scenarioColumn) scenarioColumn.width = Math.max(scenarioColumn.width, ...results.map((r) => r.name.length));
  if (sideColumn)
    sideColumn.width = Math.max(sideColumn.width, ...results.flatMap((r) => r.also.map((a) => a.label.length)));
  console.log(line(COLUMNS.map((c) => c.head)));
  console.log(line(COLUMNS.map((c) => '-'.repeat(c.width))));
  for (const r of results) {
    console.log(line(summaryCells(r.name, 'API', r.api)));
    console.log(line(summaryCells('', 'SQL', r.sql)));
    for (const a of r.also) console.log(line(summaryCells('', a.label, a.s)));
    console.log(line(['', 'API/SQL', '', '', times(r.ratio.rps), times(r.ratio.p50)]));
  }
  console.log('');
  for (const r of results) {
    console.log(`${r.name}: ${r.title}`);
    for (const n of r.notes) console.log(`  note: ${n}`);
    for (const [side, s] of [['API', r.api], ['SQL', r.sql], ...r.also.map((a) => [a.label, a.s] as const)] as const) {
      if (s.errors) console.log(`  ${side}: ${s.errors} errors, first: ${s.firstError}`);
    }
  }
}

// --- figures into the README ----------------------------------------------------------------------------

/**
 * Figures are only worth keeping from a quiet machine: at the start the 1- and 5-minute load averages
 * must be under a quarter of a core per core (nothing else running), and at the end the 1-minute one
 * under one per core plus the bench's own two threads. Otherwise the run says why and writes nothing.
 */
function quietEnough(start: number[], end: number[], cores: number): string | null {
  const [s1 = 0, s5 = 0] = start;
  const [e1 = 0] = end;
  if (s1 > cores * 0.25 || s5 > cores * 0.25)
    return `the machine was busy at the start (load ${s1.toFixed(2)}, ${s5.toFixed(2)})`;
  if (e1 > cores + 2) return `the machine was busy at the end (load ${e1.toFixed(2)})`;
  return null;
}

const README = join(import.meta.dirname, 'README.md');
const BEGIN = '<!-- bench:latest -->';
const END = '<!-- /bench:latest -->';

function writeReadme(results: Result[], bench: RunningBench, startLoad: number[], endLoad: number[]) {
  const busy = quietEnough(startLoad, endLoad, os.availableParallelism());
  if (busy) {
    console.log(`README    not written: ${busy}. Run again on a quiet machine.`);
    process.exitCode = 1;
    return;
  }
  const rows = results.flatMap((r) => [
    `| ${r.name} | ${bench.kind} | API | ${num(r.api.p50)} | ${num(r.api.p99)} | ${num(r.api.rps)} |`,
    `| | | SQL | ${num(r.sql.p50)} | ${num(r.sql.p99)} | ${num(r.sql.rps)} |`,
    ...r.also.map((a) => `| | | ${a.label} | ${num(a.s.p50)} | ${num(a.s.p99)} | ${num(a.s.rps)} |`),
    `| | | API/SQL p50 | ${times(r.ratio.p50)} | | |`,
    ...r.notes.map((n) => `| | | note | ${n} | | |`),
  ]);
  const block = [
    BEGIN,
    `Latest run on ${bench.kind} (${bench.engine}), ${new Date().toISOString().slice(0, 10)}, load ${startLoad.map((l) => l.toFixed(2)).join(' ')} at the start and ${endLoad.map((l) => l.toFixed(2)).join(' ')} at the end, concurrency ${st.concurrency}:`,
    '',
    '| scenario | engine | side | p50 ms | p99 ms | req/s |',
    '|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
  const text = readFileSync(README, 'utf8');
  const marker = `${BEGIN.slice(0, -4)}:${bench.kind} -->`;
  const endMarker = `${END.slice(0, -4)}:${bench.kind} -->`;
  const mine = block.replace(BEGIN, marker).replace(END, endMarker);
  const at = text.indexOf(marker);
  const next =
    at >= 0
      ? text.slice(0, at) + mine + text.slice(text.indexOf(endMarker) + endMarker.length)
      : `${text.trimEnd()}\n\n${mine}\n`;
  writeFileSync(README, next);
  console.log(`README    figures written to bench/README.md (${bench.kind})`);
}

// --- main ------------------------------------------------------------------------------------------------

const st = readSettings();
const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;
console.log('代账云 benchmark');
console.log(
  `machine   ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${gib(os.totalmem())}, ` +
    `${os.platform()} ${os.arch()}, node ${process.version}`,
);
// The figures are only as good as the machine is quiet: show what else was running.
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const startLoad = os.loadavg();
console.log(`load      ${loadavg()} (1, 5, 15 min) at the start`);
console.log(
  `settings  ${st.requests ? `BENCH_REQUESTS=${st.requests}` : `BENCH_SECONDS=${st.seconds}`} per side, ` +
    `BENCH_CONCURRENCY=${st.concurrency}, BENCH_WARMUP=${st.warmup} s` +
    (st.only.length ? `, BENCH_ONLY=${st.only.join(',')}` : ''),
);

const scenarios = await loadScenarios(st.only);
let bench: RunningBench | null = null;
let load: HttpLoad | null = null;
let closing: Promise<void> | null = null;
let interrupted = false;
const shutdown = () => {
  closing ??= (async () => {
    await load?.close();
    await closeAllBenches();
  })();
  return closing;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    progress(`${signal}: cleaning up`);
    // Dropping the database cuts connections still seeding; their errors no longer matter.
    process.on('uncaughtException', () => {});
    process.on('unhandledRejection', () => {});
    void shutdown().finally(() => process.exit(130));
  });
}

try {
  progress(
    `seeding ${process.env.DATABASE_URL ? 'a new PostgreSQL database' : 'PGlite in a temporary folder'} and starting the server`,
  );
  bench = await startBench(
    process.env,
    scenarios.flatMap((s) => (s.seed ? [s.seed] : [])),
  );
  console.log(`engine    ${bench.kind}: ${bench.engine} (${bench.location})`);
  console.log(
    `data      bench agency ${num(BENCH_ENTERPRISES, 0)} enterprises, ${BENCH_STAFF} staff; ` +
      `${OTHER_AGENCIES} other agencies × ${OTHER_ENTERPRISES} enterprises; demo data; seeded in ${num(bench.seedMs / 1000, 1)} s`,
  );
  console.log(`server    ${bench.baseUrl} (same process; API load from a worker thread, keep-alive)`);
  console.log('');

  load = new HttpLoad();
  const results: Result[] = [];
  for (const s of scenarios) {
    progress(`${s.name}: preparing`);
    const runs = await s.prepare(bench);
    const specs = Array.isArray(runs.api) ? runs.api : [runs.api];
    const api = await measureHttp(s.name, load, bench.baseUrl, specs, st);
    const sql = await measureLocal(s.name, 'SQL', runs.sql, st);
    const also: Row[] = [];
    for (const a of runs.also ?? []) also.push({ label: a.label, s: await measureLocal(s.name, a.label, a.op, st) });
    await runs.settle?.();
    const result: Result = {
      name: s.name,
      title: s.title,
      api,
      sql,
      also,
      notes: runs.notes ?? [],
      ratio: { p50: api.p50 / sql.p50, rps: api.rps / sql.rps },
    };
    results.push(result);
    // Each scenario's figures as soon as it is done (a long run cut short keeps what it measured).
    printTable([result]);
    console.log('');
  }

  console.log('all scenarios:');
  printTable(results);
  const endLoad = os.loadavg();
  console.log(`\nload      ${loadavg()} (1, 5, 15 min) at the end`);
  if (process.env.BENCH_README === '1') writeReadme(results, bench, startLoad, endLoad);
  if (st.json) {
    const machine = { cores: os.availableParallelism(), cpu: os.cpus()[0]?.model.trim(), node: process.version };
    writeFileSync(
      st.json,
      `${JSON.stringify({ engine: bench.engine, kind: bench.kind, machine, settings: st, results }, null, 2)}\n`,
    );
    progress(`results written to ${st.json}`);
  }
  if (results.some((r) => r.api.errors || r.sql.errors || r.also.some((a) => a.s.errors))) process.exitCode = 1;
} catch (e) {
  // After Ctrl-C the failure is only the interruption; the signal handler cleans up and exits.
  if (!interrupted) {
    // Drizzle's message carries the whole query and its parameters: show the database's reason first.
    const err = e instanceof Error ? e : new Error(String(e));
    const cause = err.cause instanceof Error ? err.cause.message : null;
    console.error(`\nbench failed: ${cause ?? err.message.slice(0, 500)}`);
    if (cause) console.error(`  in: ${err.message.slice(0, 300)}`);
    console.error(err.stack?.split('\n').slice(1, 6).join('\n') ?? '');
    process.exitCode = 1;
  }
} finally {
  await shutdown();
}
