import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HELPER_PATH } from '@dzy/shared';

// docs/spec-coverage.md: every call the spec names (section 7 of foundation.md, business.md and
// tax-bureau.md) and the route that serves it, an equivalent, or the recorded reason it is not served.
// `npx tsx scripts/spec-coverage.ts` rewrites it; `--check` fails when it is stale
// (apps/server/test/spec-coverage.test.ts runs the same comparison in every test run).

const ROOT = resolve(import.meta.dirname, '..');
export const SPEC_DIR = resolve(ROOT, '../shared/spec');
export const COVERAGE_FILE = resolve(ROOT, 'docs/spec-coverage.md');
/**
 * The calls read from the spec, kept beside the table: the spec lives outside the repository (../shared/spec),
 * so a checkout without it still checks the table against the routes.
 */
export const SPEC_CALLS_FILE = resolve(ROOT, 'docs/spec-calls.json');
const REASONS_FILE = resolve(ROOT, 'docs/spec-coverage-reasons.json');
const HELPER_SOURCES = ['apps/helper/src', 'apps/tax-sim/src'];

export interface SpecCall {
  doc: string;
  section: string;
  /** As the spec names it, a bare name under the prefix written before it in the bullet. */
  call: string;
  /** The spec gives its prefix (matched by path); otherwise a bare name or one under a prefix carried over a ';'. */
  explicit: boolean;
}

/** Words that look like call names but are fields or prose in the spec's bullets. */
const NOT_CALLS = new Set([
  'agencyId',
  'userId',
  'isAdmin',
  'pageNo',
  'pageSize',
  'tempName',
  'qyshList',
  'redisKey',
  'failNum',
  'userPhone',
  'orgId',
  'orderNo',
  'dictGroup',
  'busiVal',
  'isImported',
  'contractUserId',
  'userName',
  'paths',
  'esLog',
  'aqUrl',
  'whitelistResult',
  'idCard',
  'reportTime',
  'lists',
]);
const CONNECTORS = new Set(['and', 'then', 'or']);
const camel = (w: string) => /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(w) && !NOT_CALLS.has(w);
const ident = (w: string) => /^[A-Za-z][A-Za-z0-9_]*$/.test(w) && !NOT_CALLS.has(w);
const isPath = (w: string) => /^\/?[A-Za-z][\w.-]*(\/[\w.{}-]*)+$/.test(w);

/** Parenthesised text is dropped unless it is only call names, e.g. "(then changeAdminInfo and …)". */
function cleanClause(text: string): string {
  let t = text.replace(/'[^']*'/g, ' ');
  for (let i = 0; i < 3; i++) t = t.replace(/(?<!\/)\{[^{}]*\}/g, ' ');
  t = t.replace(/\(([^()]*)\)/g, (_, inner: string) => {
    const words = inner.split(/[\s,]+/).filter(Boolean);
    const keep = words.some(camel) && words.every((w) => camel(w) || CONNECTORS.has(w));
    return keep ? `; ${words.filter((w) => !CONNECTORS.has(w)).join(', ')};` : ' ';
  });
  return t.replace(/\b(GET|POST)\b/g, ';');
}

/** The calls one bullet or line names. `base` is a section-wide prefix ("user/workorder/ followed by:"). */
function callsOfLine(line: string, base: string): { call: string; explicit: boolean }[] {
  const out: { call: string; explicit: boolean }[] = [];
  const push = (call: string, explicit: boolean) => out.push({ call, explicit });
  // Sentences end the reach of a prefix.
  for (const sentence of cleanClause(line).split(/\.\s+(?=[A-Z])|\.$/)) {
    let prefix = base;
    // A prefix written in the same clause (a list after a path) is the spec's; one carried over a ';'
    // ("org/agencyOrganizeList {…}; saveAgencyInviteList") is a guess, so such names may match by name.
    let carried = false;
    for (const clause of sentence.split(';')) {
      carried = prefix !== base;
      // "aisino/declared: chkSbUser, …" and "wddb: determineGs, …" give a prefix; "Pool: user/…" is a label,
      // and a label can itself end in a call ("Opportunities …, changeBusiOppFollowupBy: shapes not shown").
      let parts = [clause];
      const colon = clause.indexOf(':');
      if (colon >= 0) {
        const left = clause.slice(0, colon).trim();
        const right = clause.slice(colon + 1);
        const first =
          right
            .split(/,|\band\b/)[0]
            ?.trim()
            .split(/\s+/) ?? [];
        const single = left.length > 0 && !/\s/.test(left);
        if (single && (isPath(left) || /^[a-z]/.test(left)) && first.length === 1 && ident(first[0] ?? '')) {
          prefix = left.endsWith('/') ? left : `${left}/`;
          carried = false;
          parts = [right];
        } else parts = [left, right];
      }
      for (const items of parts)
        for (const item of items.split(/,|\band\b|\bor\b/)) {
          const words = item.trim().split(/\s+/).filter(Boolean);
          if (words.length === 0) continue;
          // "user/ycs/bs selectLog", "invoice-pool/statistic/ searchJxppData": a path then a name is a prefix.
          // "user/gssb lists and redis status": a prefix before a word that is not a call.
          if (words.length === 2 && isPath(words[0] ?? '') && /^[A-Za-z]\w*$/.test(words[1] ?? '')) {
            const p = words[0] ?? '';
            prefix = p.endsWith('/') ? p : `${p}/`;
            carried = false;
            if (ident(words[1] ?? '')) push(prefix + words[1], true);
            continue;
          }
          const paths = words.filter(isPath);
          if (paths.length > 0) {
            for (const p of paths) {
              carried = false;
              if (p.endsWith('/')) prefix = p;
              else if (/^\w+\/\{\w+\}$/.test(p))
                push(prefix + p, true); // deleteAgencyRole/{id}
              else {
                push(p, true);
                prefix = p.slice(0, p.lastIndexOf('/') + 1);
              }
            }
            continue;
          }
          // Prose ("payload fields name, idCard, …"): the rest of the clause lists fields, not calls.
          if (words.length !== 1) break;
          const w = words[0] ?? '';
          const previous = out.at(-1)?.call;
          // "checkPersonHasMenuAuth and V2": the same call's next version.
          if (/^V\d+$/.test(w) && previous) push(previous.replace(/V\d+$/, '') + w, out.at(-1)?.explicit ?? false);
          else if (prefix && ident(w)) push(prefix + w, !carried);
          else if (camel(w)) push(w, false);
        }
    }
  }
  return out;
}

/** The helper's own endpoints and funcs (tax-bureau.md §7 "Local helper service"). */
function helperCallsOfLine(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/(?:POST|GET) (\/[\w/]+)|\((?:and )?(\/[\w/]+)\)/g)) out.push((m[1] ?? m[2]) as string);
  for (const m of line.matchAll(/func[= ](?!path\b)(\w+)/g)) out.push(m[1] as string);
  for (const m of line.matchAll(/func=\w+, (\w+) or (\w+)/g)) out.push(m[1] as string, m[2] as string);
  const wrapped = /Helper-wrapped calls to tax systems: ([^(]*?), and pass-through/.exec(line);
  if (wrapped?.[1]) out.push(...wrapped[1].split(/,\s*/));
  const more = /func openrun \([^)]*\), (\w+) and others/.exec(line);
  if (more?.[1]) out.push(more[1]);
  return out;
}

/** How many {token} / {hash} placeholders (calls whose path the spec does not give) the last extraction skipped. */
export let placeholders = 0;

export function extractSpecCalls(specDir = SPEC_DIR): SpecCall[] {
  if (!existsSync(specDir))
    throw new Error(`the spec is not at ${specDir} (expected ../shared/spec beside the repository)`);
  const calls: SpecCall[] = [];
  placeholders = 0;
  for (const doc of ['foundation.md', 'business.md', 'tax-bureau.md']) {
    const lines = readFileSync(join(specDir, doc), 'utf8').split('\n');
    const start = lines.findIndex((l) => /^## 7\./.test(l));
    const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
    let section = '';
    let base = '';
    const seen = new Set<string>();
    for (const raw of lines.slice(start + 1, end)) {
      const line = raw.trim();
      if (line.startsWith('### ') || line.startsWith('**')) {
        section = line.replace(/^### |\*\*/g, '').trim();
        base = '';
        continue;
      }
      const followed = /^([\w/.-]+\/) followed by:$/.exec(line);
      if (followed?.[1]) {
        base = followed[1];
        continue;
      }
      // foundation.md names its groups as "Session and organisation:" lines.
      const group = /^([A-Z][^:]{2,60}):(\s|$)/.exec(line);
      if (!line.startsWith('-') && group?.[1] && doc === 'foundation.md') section = group[1];
      if (!line) continue;
      const text = line.replace(/^- /, '');
      placeholders += (text.match(/(?<!\/)\{(token|hash)\}/g) ?? []).length;
      const names =
        doc === 'tax-bureau.md' && section === 'Local helper service'
          ? helperCallsOfLine(text).map((n) => ({ call: `helper: ${n}`, explicit: true }))
          : callsOfLine(text, base);
      for (const { call, explicit } of names) {
        if (seen.has(call)) continue;
        seen.add(call);
        calls.push({ doc, section: section || 'General', call, explicit });
      }
    }
  }
  return calls;
}

export interface Reason {
  /** "equivalent": served by another route (by); "not served": deliberately not served. */
  status: 'equivalent' | 'not served';
  by?: string;
  reason: string;
}

type Row = SpecCall & { servedBy: string; note: string; kind: 'served' | 'equivalent' | 'not served' | 'open' };

function helperSourceText(): string {
  let text = '';
  for (const dir of HELPER_SOURCES) {
    const abs = resolve(ROOT, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs, { recursive: true }) as string[])
      if (f.endsWith('.ts')) text += `${dir}/${f}\n${readFileSync(join(abs, f), 'utf8')}\n`;
  }
  return text;
}

/**
 * The table, from the spec and the routes the product serves (`served`: call paths and plain routes,
 * without /api/, e.g. "user/agency/importPassword").
 */
export function renderCoverage(served: string[], spec: SpecExtract = committedSpec()): string {
  const specCalls = spec.calls;
  const reasons = JSON.parse(readFileSync(REASONS_FILE, 'utf8')) as Record<string, Reason>;
  // A plain route's parameters are not part of the spec's name: user/fp/xxfp/doInvoicePrintV2/:id.
  const servedAs = new Map<string, string>();
  for (const p of served) servedAs.set(p.replace(/(\/:\w+)+$/, ''), p);
  const byLast = new Map<string, string[]>();
  for (const [p, route] of servedAs) {
    const last = p.split('/').at(-1) ?? p;
    byLast.set(last, [...(byLast.get(last) ?? []), route]);
  }
  /** Exact; else served under a longer prefix (msg/selectMsgSend at user/msg/selectMsgSend); else, for a
   * bare name or one under an inferred prefix, the one served call of that distinctive name. */
  const match = (c: SpecCall): { route: string; note: string } | undefined => {
    const exact = servedAs.get(c.call);
    if (exact) return { route: exact, note: '' };
    const longer = [...servedAs].filter(([p]) => p.endsWith(`/${c.call}`));
    if (longer.length === 1 && longer[0]) return { route: longer[0][1], note: 'same path under a prefix' };
    if (c.explicit) return undefined;
    const last = c.call.split('/').at(-1) ?? '';
    const same = byLast.get(last) ?? [];
    if (same.length === 1 && same[0] && camel(last) && last.length >= 8) return { route: same[0], note: 'same name' };
    return undefined;
  };
  const helperText = helperSourceText();
  const rows: Row[] = specCalls.map((c) => {
    const reason = reasons[c.call] ?? reasons[c.call.split('/').at(-1) ?? ''];
    if (c.call.startsWith('helper: ')) {
      let name = c.call.slice('helper: '.length);
      // The helper's POST paths are constants of the shared protocol (HELPER_PATH.etax = '/hb_etax_ex').
      const key = Object.entries(HELPER_PATH).find(([, v]) => v === name)?.[0];
      if (key) name = `HELPER_PATH.${key}`;
      const hit = HELPER_SOURCES.filter((dir) => {
        const re = key
          ? new RegExp(`${name.replace('.', '\\.')}\\b`)
          : new RegExp(`['"\`/]${name.replace(/^\//, '')}['"\`/?]`);
        return helperText.split(/\n(?=apps\/)/).some((chunk) => chunk.startsWith(dir) && re.test(chunk));
      });
      if (hit.length > 0) return { ...c, kind: 'served', servedBy: hit.join(', '), note: 'named in its source' };
    } else {
      const m = match(c);
      if (m) return { ...c, kind: 'served', servedBy: `\`${m.route}\``, note: m.note };
    }
    if (reason?.status === 'equivalent')
      return { ...c, kind: 'equivalent', servedBy: reason.by ? `\`${reason.by}\`` : '', note: reason.reason };
    if (reason?.status === 'not served') return { ...c, kind: 'not served', servedBy: '—', note: reason.reason };
    return { ...c, kind: 'open', servedBy: '—', note: '**not yet served** (issue 19)' };
  });
  const count = (rs: Row[], k: Row['kind']) => rs.filter((r) => r.kind === k).length;
  const totals = (rs: Row[]) =>
    `${rs.length} calls: ${count(rs, 'served')} served, ${count(rs, 'equivalent')} by an equivalent, ` +
    `${count(rs, 'not served')} not served with a reason, **${count(rs, 'open')} not yet served**`;
  const out: string[] = [
    '# Spec coverage',
    '',
    'Every call the spec names (section 7 of `foundation.md`, `business.md` and `tax-bureau.md`) and what',
    'serves it. Generated by `npx tsx scripts/spec-coverage.ts` from the spec, the calls and plain routes the',
    "server registers, the helper and simulator sources (for the helper program's own endpoints), and the",
    'reasons kept by hand in `docs/spec-coverage-reasons.json`; `apps/server/test/spec-coverage.test.ts` fails',
    'when this file is stale. Do not edit it by hand. How calls are read from the spec: docs/decisions/api.md.',
    '',
    "A bare name is shown under the path written before it in the same bullet (the spec's list notation);",
    '"same name" means the call is served under another prefix. Calls the spec gives without a path',
    `(\`{token}\` and \`{hash}\` placeholders, ${spec.placeholders} of them) and calls it only describes are not listed.`,
    '`helper:` rows are the helper program\'s own endpoints and funcs (tax-bureau.md, "Local helper service"):',
    'served when apps/helper or apps/tax-sim names them in its source. tax-bureau.md\'s "Server calls" are',
    "the product's own calls and are matched like the others.",
    '',
    `Total: ${totals(rows)}.`,
    '',
  ];
  for (const doc of [...new Set(rows.map((r) => r.doc))]) {
    const docRows = rows.filter((r) => r.doc === doc);
    out.push(`## ${doc}`, '', `${totals(docRows)}.`, '');
    for (const section of [...new Set(docRows.map((r) => r.section))]) {
      out.push(`### ${section}`, '', '| spec call | served by | note |', '|---|---|---|');
      for (const r of docRows.filter((x) => x.section === section))
        out.push(`| \`${r.call}\` | ${r.servedBy} | ${r.note.replace(/\|/g, '\\|')} |`);
      out.push('');
    }
  }
  return out.join('\n');
}

/** What the spec names: its calls, and how many placeholders it gives instead of a path. */
export interface SpecExtract {
  placeholders: number;
  calls: SpecCall[];
}

/** Reads the spec (../shared/spec). */
export function extractSpec(specDir = SPEC_DIR): SpecExtract {
  const calls = extractSpecCalls(specDir);
  return { placeholders, calls };
}

/** The spec's calls as last extracted (docs/spec-calls.json). */
export function committedSpec(): SpecExtract {
  return JSON.parse(readFileSync(SPEC_CALLS_FILE, 'utf8')) as SpecExtract;
}

const specJson = (spec: SpecExtract) => `${JSON.stringify(spec, null, 2)}\n`;

/** The calls and plain routes the server registers, without the /api/ prefix. */
export async function servedRoutes(): Promise<string[]> {
  const { default: Fastify } = await import('fastify');
  const { serverModules } = await import('../apps/server/src/app.js');
  const app = Fastify();
  const seen: string[] = [];
  app.addHook('onRoute', (r) => {
    seen.push(r.url.replace(/^\/api\//, ''));
  });
  const modules = serverModules();
  for (const m of modules) m.routes?.(app, {} as never);
  await app.ready();
  await app.close();
  return [...modules.flatMap((m) => m.calls.map((c) => c.def.path)), ...seen];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const spec = extractSpec();
  const { calls } = spec;
  for (const doc of [...new Set(calls.map((c) => c.doc))])
    console.log(`${doc}: ${calls.filter((c) => c.doc === doc).length} calls`);
  const text = renderCoverage(await servedRoutes(), spec);
  if (process.argv.includes('--check')) {
    const stale = (file: string, want: string) => !existsSync(file) || readFileSync(file, 'utf8') !== want;
    // The JSON is compared as data (the formatter lays the file out its own way).
    const callsStale = !existsSync(SPEC_CALLS_FILE) || JSON.stringify(committedSpec()) !== JSON.stringify(spec);
    if (stale(COVERAGE_FILE, text) || callsStale) {
      console.error('docs/spec-coverage.md or docs/spec-calls.json is stale: run npx tsx scripts/spec-coverage.ts');
      process.exit(1);
    }
  } else {
    writeFileSync(COVERAGE_FILE, text);
    writeFileSync(SPEC_CALLS_FILE, specJson(spec));
  }
}
