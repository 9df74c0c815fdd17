import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { afterAll, describe, expect, it } from 'vitest';
import { contractPaths } from '../contract-paths';

// The web build's view of the contract (issue 30 point 5): calls keep their path and access, lose their
// schemas, and a module's unused schemas are dropped, so the shell loads no zod.

const SHARED = resolve(import.meta.dirname, '../../../packages/shared/src');
const dir = mkdtempSync(join(tmpdir(), 'dzy-contract-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `entry` as the web build does (the plugin, the shared modules free of side effects) and runs it. */
async function bundle(name: string, entry: string): Promise<{ code: string; exports: Record<string, unknown> }> {
  const input = join(dir, `${name}.ts`);
  writeFileSync(input, entry);
  const build = await rolldown({
    input,
    plugins: [contractPaths()],
    treeshake: {
      // As apps/web/vite.config.ts for the shared modules; packages decide for themselves (package.json
      // sideEffects, as Vite's resolver passes it on).
      moduleSideEffects: (id: string) =>
        id.includes('/packages/shared/src/') ? id.endsWith('zod-locale.ts') : (undefined as unknown as boolean),
    },
  });
  const { output } = await build.generate({ format: 'es' });
  await build.close();
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, output[0].code);
  return { code: output[0].code, exports: await import(pathToFileURL(file).href) };
}

describe('the contract in the web build', () => {
  it('keeps what the shell reads and drops zod with the schemas', async () => {
    const { code, exports } = await bundle(
      'shell',
      `import { ROLE_LABELS, ORG_TYPE_NAMES, noQyshListCall, checkStartCall, bellText, stripSpaces } from '${SHARED}/index.ts';
       export const labels = ROLE_LABELS, orgTypes = ORG_TYPE_NAMES, call = noQyshListCall, check = checkStartCall;
       export const bell = bellText, strip = stripSpaces;`,
    );
    const { labels, orgTypes, call, check, strip } = exports as {
      labels: Record<number, string>;
      orgTypes: Record<string, string>;
      call: { path: string; body: unknown; data: unknown; summary: unknown };
      check: { access: string };
      strip: (s: string) => string;
    };
    // The same values as the contract's own.
    const shared = await import(`${SHARED}/index.ts`);
    expect(labels).toEqual(shared.ROLE_LABELS);
    expect(orgTypes).toEqual(shared.ORG_TYPE_NAMES);
    expect(call.path).toBe(shared.noQyshListCall.path);
    expect(check.access).toBe(shared.checkStartCall.access);
    expect(strip(' 9133 0106 ')).toBe('91330106');
    // The schemas are gone from the call and from the bundle: no zod class is defined in it.
    expect(call.body).toEqual({ shape: {} });
    expect(call.data).toBeUndefined();
    expect(call.summary).toBeUndefined();
    expect(code).not.toMatch(/\$ZodObject|ZodObject/);
  });

  it('every call keeps its path and access, and whether its page number is pageNum (lib/paging.ts)', async () => {
    const { exports } = await bundle('all', `export * from '${SHARED}/index.ts';`);
    const shared = (await import(`${SHARED}/index.ts`)) as Record<string, unknown>;
    type Def = { path?: unknown; access?: unknown; body?: { shape?: Record<string, unknown> } };
    const calls = Object.entries(shared).filter(
      ([, v]) => typeof v === 'object' && v !== null && typeof (v as Def).path === 'string' && 'body' in (v as Def),
    );
    expect(calls.length).toBeGreaterThan(400);
    const differ: string[] = [];
    for (const [name, def] of calls) {
      const web = exports[name] as Def;
      const pageNum = (d: Def) => 'pageNum' in (d.body?.shape ?? {});
      if (web.path !== (def as Def).path || web.access !== (def as Def).access) differ.push(`${name}: path/access`);
      if (pageNum(web) !== pageNum(def as Def)) differ.push(`${name}: pageNum`);
      if (typeof web.body?.shape !== 'object') differ.push(`${name}: no shape`);
    }
    expect(differ).toEqual([]);
  });

  it('keeps a schema, and zod, for code that parses with it', async () => {
    const { exports } = await bundle(
      'parse',
      `import { chatSessionSchema } from '${SHARED}/index.ts';
       export const ok = chatSessionSchema.safeParse({ id: 1, qysh: 'a', qymc: 'b', url: 'c', status: 1, createTime: 'd' }).success;
       export const bad = chatSessionSchema.safeParse({ id: '1' }).success;`,
    );
    expect(exports.ok).toBe(true);
    expect(exports.bad).toBe(false);
  });
});
