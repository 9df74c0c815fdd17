/**
 * Fault switches (docs/tax-bureau-protocol.md, "Faults"): per taxpayer or global. A count applies to
 * that many of the next calls and then switches itself off; 'always' stays until cleared.
 */
export type Times = number | 'always';

export interface FaultSpec {
  /** Extra delay per call, ms. */
  slowMs?: number;
  /** 'too many people' replies. */
  busy?: Times;
  /** 访问频繁，请稍后再试 replies. */
  tooFrequent?: Times;
  /** HTTP 502 replies. */
  error5xx?: Times;
  /** Calls that never answer (until the client gives up). */
  hang?: Times;
  /** Calls the bureau carries out (a return filed, a tax paid) whose answer is lost: HTTP 502 after the work. */
  lostReply?: Times;
}

export type FaultKind = 'busy' | 'tooFrequent' | 'error5xx' | 'hang' | 'lostReply';
const KINDS: readonly FaultKind[] = ['hang', 'error5xx', 'busy', 'tooFrequent', 'lostReply'];

export interface Faults {
  /** Merges switches for one taxpayer, or globally when qysh is omitted. */
  set(spec: FaultSpec, qysh?: string): void;
  /** Clears one taxpayer's switches, or every switch when qysh is omitted. */
  clear(qysh?: string): void;
  list(): { global: FaultSpec; taxpayers: Record<string, FaultSpec> };
  /** For one call: the fault to play (counting it down) and the extra delay. */
  take(qysh: string | null): { fault: FaultKind | null; slowMs: number };
}

export function createFaults(): Faults {
  let global: FaultSpec = {};
  const perTaxpayer = new Map<string, FaultSpec>();

  function consume(spec: FaultSpec): FaultKind | null {
    for (const kind of KINDS) {
      const left = spec[kind];
      if (left === undefined) continue;
      if (left === 'always') return kind;
      if (left > 0) {
        spec[kind] = left - 1;
        if (left - 1 === 0) delete spec[kind];
        return kind;
      }
    }
    return null;
  }

  return {
    set(spec, qysh) {
      const clean = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as FaultSpec;
      if (qysh) perTaxpayer.set(qysh, { ...perTaxpayer.get(qysh), ...clean });
      else global = { ...global, ...clean };
    },
    clear(qysh) {
      if (qysh) perTaxpayer.delete(qysh);
      else {
        global = {};
        perTaxpayer.clear();
      }
    },
    list() {
      return { global: { ...global }, taxpayers: Object.fromEntries(perTaxpayer) };
    },
    take(qysh) {
      const own = qysh ? perTaxpayer.get(qysh) : undefined;
      const fault = (own && consume(own)) || consume(global);
      return { fault, slowMs: (own?.slowMs ?? 0) + (global.slowMs ?? 0) };
    },
  };
}

/** Reads a fault spec from an admin request body; null when it is not one. */
export function parseFaultSpec(body: Record<string, unknown>): FaultSpec | null {
  const spec: FaultSpec = {};
  const times = (v: unknown): Times | undefined | null =>
    v === undefined
      ? undefined
      : v === 'always'
        ? 'always'
        : Number.isInteger(v) && (v as number) >= 0
          ? (v as number)
          : null;
  for (const kind of ['busy', 'tooFrequent', 'error5xx', 'hang', 'lostReply'] as const) {
    const t = times(body[kind]);
    if (t === null) return null;
    if (t !== undefined) spec[kind] = t;
  }
  if (body.slowMs !== undefined) {
    if (!Number.isInteger(body.slowMs) || (body.slowMs as number) < 0) return null;
    spec.slowMs = body.slowMs as number;
  }
  return spec;
}
