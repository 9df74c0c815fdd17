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
  /**
   * Calls the bureau carries out and then never answers (the connection stays open until the client gives
   * up or dies): a client killed while waiting has submitted without knowing it.
   */
  hangAfter?: Times;
  /** Calls refused with code 43999 and refuseMsg (a failure with a reason, e.g. for the invoice pool). */
  refuse?: Times;
  refuseMsg?: string;
}

export type FaultKind = 'busy' | 'tooFrequent' | 'error5xx' | 'hang' | 'lostReply' | 'hangAfter' | 'refuse';
const KINDS: readonly FaultKind[] = ['hang', 'error5xx', 'busy', 'tooFrequent', 'lostReply', 'hangAfter', 'refuse'];
export const DEFAULT_REFUSE_MSG = '发票服务暂不可用，请稍后再试';

export interface Faults {
  /**
   * Merges switches for one taxpayer, or globally when qysh is omitted; with path (e.g. 'fp/kp',
   * 'fp/cxfp', 'ShenBaoQG/fpxx') they apply to that call of that taxpayer only.
   */
  set(spec: FaultSpec, qysh?: string, path?: string): void;
  /** Clears one taxpayer's switches (its per-call ones too), or every switch when qysh is omitted. */
  clear(qysh?: string): void;
  list(): { global: FaultSpec; taxpayers: Record<string, FaultSpec>; calls: Record<string, FaultSpec> };
  /** For one call: the fault to play (counting it down), the extra delay and a refusal's message. */
  take(qysh: string | null, path?: string): { fault: FaultKind | null; slowMs: number; msg: string };
}

export function createFaults(): Faults {
  let global: FaultSpec = {};
  const perTaxpayer = new Map<string, FaultSpec>();
  /** `${qysh}|${path}` → switches for that call only */
  const perCall = new Map<string, FaultSpec>();

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
    set(spec, qysh, path) {
      const clean = Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as FaultSpec;
      if (qysh && path) {
        const k = `${qysh}|${path.replace(/^\/+/, '')}`;
        perCall.set(k, { ...perCall.get(k), ...clean });
      } else if (qysh) perTaxpayer.set(qysh, { ...perTaxpayer.get(qysh), ...clean });
      else global = { ...global, ...clean };
    },
    clear(qysh) {
      if (qysh) {
        perTaxpayer.delete(qysh);
        for (const k of [...perCall.keys()]) if (k.startsWith(`${qysh}|`)) perCall.delete(k);
      } else {
        global = {};
        perTaxpayer.clear();
        perCall.clear();
      }
    },
    list() {
      return {
        global: { ...global },
        taxpayers: Object.fromEntries(perTaxpayer),
        calls: Object.fromEntries(perCall),
      };
    },
    take(qysh, path) {
      const call = qysh && path ? perCall.get(`${qysh}|${path.replace(/^\/+/, '')}`) : undefined;
      const own = qysh ? perTaxpayer.get(qysh) : undefined;
      let fault: FaultKind | null = null;
      let msg = '';
      for (const spec of [call, own, global]) {
        if (!spec) continue;
        fault = consume(spec);
        if (fault) {
          msg = spec.refuseMsg || DEFAULT_REFUSE_MSG;
          break;
        }
      }
      return { fault, slowMs: (call?.slowMs ?? 0) + (own?.slowMs ?? 0) + (global.slowMs ?? 0), msg };
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
  for (const kind of ['busy', 'tooFrequent', 'error5xx', 'hang', 'lostReply', 'hangAfter', 'refuse'] as const) {
    const t = times(body[kind]);
    if (t === null) return null;
    if (t !== undefined) spec[kind] = t;
  }
  if (body.refuseMsg !== undefined) {
    if (typeof body.refuseMsg !== 'string' || body.refuseMsg.length > 200) return null;
    spec.refuseMsg = body.refuseMsg;
  }
  if (body.slowMs !== undefined) {
    if (!Number.isInteger(body.slowMs) || (body.slowMs as number) < 0) return null;
    spec.slowMs = body.slowMs as number;
  }
  return spec;
}
