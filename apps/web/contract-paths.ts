import { parseAst } from 'rolldown/parseAst';
import type { Plugin } from 'vite';

/**
 * The shared contract as the web client needs it (issue 30 point 5): a call's path and access, not its
 * schemas. The web client never validates with a call's `body` or `data` (lib/request.ts sends `path` and
 * reads the envelope; one page reads `access`; lib/paging.ts reads whether a list's body names its page
 * number pageNum), yet each `defineCall({ … body, data })` it imports held
 * its schemas, and the schemas' `z.…` calls at the top of a module ran when it loaded: importing one
 * constant from a contract module brought zod (≈ 20 KB compressed) and every schema of that module into
 * the shell. In the web build only, for packages/shared/src (not the server, not the tests):
 *
 * - `defineCall({ … })` keeps `path`, `access` and `person`; `data` and `summary` become `void 0`, and
 *   `body` becomes `{ shape: { pageNum: 0 } }` or `{ shape: {} }` — all lib/paging.ts reads of it is
 *   whether the page number is called pageNum (apps/web/test/contract-paths.test.ts checks every call) —
 *   so a schema only a call referred to is no longer referred to;
 * - a top-level `const` whose initializer calls or reads properties (outside function bodies) is
 *   computed in an arrow function called at once and marked `/* @__PURE__ *\/`: the same value at the
 *   same moment, but a schema nothing uses is dropped by tree-shaking like an unused constant. The
 *   contract's top-level initializers build schemas, lists and maps; none is run for its effect
 *   (zod-locale.ts, which is, is left alone, and so is wire.ts).
 *
 * A schema the web does use (a helper that parses with it) is still referred to and stays, with zod.
 */
export function contractPaths(): Plugin {
  return {
    name: 'dzy-contract-paths',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/\/packages\/shared\/src\/[^/]+\.ts$/.test(id) || /\/(zod-locale|wire)\.ts$/.test(id)) return null;
      const edits = contractEdits(code);
      if (edits.length === 0) return null;
      let out = code;
      // From the end, so earlier offsets stay valid; a removal wins over an insertion at the same place.
      for (const e of edits.sort((a, b) => b.start - a.start || a.end - a.start - (b.end - b.start))) {
        out = out.slice(0, e.start) + e.text + out.slice(e.end);
      }
      return { code: out, map: null };
    },
  };
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

/** Properties of a call definition the web client does not read. */
const DROPPED = new Set(['data', 'summary']);

export function contractEdits(code: string): Edit[] {
  const program = parseAst(code, { sourceType: 'module', lang: 'ts' }) as unknown as { body: Node[] };
  const edits: Edit[] = [];

  // The source of each top-level constant, to read a body with the shapes it spreads or extends.
  const constants = new Map<string, string>();
  for (const statement of program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const d of declaration.declarations as Node[]) {
      const id = d.id as Node;
      const init = d.init as Node | null;
      if (id.type === 'Identifier' && init) constants.set(id.name as string, code.slice(init.start, init.end));
    }
  }
  /** A body's source with the module's constants it names, recursively (apps/web/test checks every call). */
  const resolved = (node: Node): string => {
    const seen = new Set<string>();
    const expand = (text: string): string =>
      text.replace(/[A-Za-z_$][\w$]*/g, (name) => {
        const source = constants.get(name);
        if (source === undefined || seen.has(name)) return name;
        seen.add(name);
        return `${name} ${expand(source)}`;
      });
    return expand(code.slice(node.start, node.end));
  };

  /** Whether evaluating the node (not the functions in it) calls or reads a property; drops call definitions' schemas. */
  const visit = (node: Node): boolean => {
    // Code in a function runs when called, not when the module loads: left as it is.
    if (/Function|Class/.test(node.type)) return false;
    let effects = /^(CallExpression|NewExpression|MemberExpression|TaggedTemplateExpression)$/.test(node.type);
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node;
      const arg = (node.arguments as Node[])[0];
      if (callee.type === 'Identifier' && callee.name === 'defineCall' && arg?.type === 'ObjectExpression') {
        for (const prop of arg.properties as Node[]) {
          const key = prop.key as Node | undefined;
          const value = prop.value as Node | undefined;
          if (prop.type !== 'Property' || !key || !value || prop.computed) continue;
          const name = key.type === 'Identifier' ? key.name : key.value;
          if (typeof name === 'string' && (DROPPED.has(name) || name === 'body')) {
            // lib/paging.ts asks a list's body whether its page number is pageNum (or pageNo): that key stays.
            const text = name === 'body' ? resolved(value) : '';
            const replacement =
              name !== 'body' ? 'void 0' : `{ shape: { ${/\bpageNum\b/.test(text) ? 'pageNum: 0' : ''} } }`;
            edits.push({ start: value.start, end: value.end, text: replacement });
            // Marked as seen: not visited below.
            (prop as { dropped?: boolean }).dropped = true;
          }
        }
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (isNode(child) && !(child as { dropped?: boolean }).dropped && visit(child)) effects = true;
      }
    }
    return effects;
  };

  for (const statement of program.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' ? (statement.declaration as Node | null) : statement;
    if (declaration?.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as Node[]) {
      const init = declarator.init as Node | null;
      // An initializer that calls or reads properties is evaluated inside a pure-marked arrow function: the
      // same value at the same moment, but dropped when nothing uses the constant (a property read such as
      // `z.object({…}).shape` cannot be marked pure itself).
      if (init && visit(init)) {
        edits.push({ start: init.start, end: init.start, text: '/* @__PURE__ */ (() => (' });
        edits.push({ start: init.end, end: init.end, text: '))()' });
      }
    }
  }
  return edits;
}
