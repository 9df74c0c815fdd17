import { FILING_STATES, FILING_TAX_TYPES, type FilingFilter, type FilingState, type FilingTaxType } from '@dzy/shared';

/** Query keys of the filing feature; all start with 'filing'. */
export const FILING_KEYS = {
  all: ['filing'] as const,
  roster: ['filing', 'roster'] as const,
  counts: ['filing', 'counts'] as const,
  overview: ['filing', 'overview'] as const,
  schedule: ['filing', 'schedule'] as const,
};

/** The roster's filters as the URL query holds them (the overview links here with the same names). */
export type RosterQuery = Partial<Omit<FilingFilter, 'failedOnly'>> & { failedOnly?: boolean };

const num = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);

/** The filters read from `?filingMonth=…&state=…`; unknown values are dropped. */
export function rosterQueryOf(params: URLSearchParams): RosterQuery {
  const q: RosterQuery = {};
  const month = params.get('filingMonth');
  if (month && /^\d{4}-(0[1-9]|1[0-2])$/.test(month)) q.filingMonth = month;
  const state = params.get('state');
  if (state && (FILING_STATES as readonly string[]).includes(state)) q.state = state as FilingState;
  const type = params.get('taxType');
  if (type && (FILING_TAX_TYPES as readonly string[]).includes(type)) q.taxType = type as FilingTaxType;
  const user = num(params.get('allocateUser'));
  if (user !== undefined) q.allocateUser = user;
  const nsrlx = params.get('nsrlx');
  if (nsrlx === '0' || nsrlx === '1') q.nsrlx = nsrlx;
  const cycle = params.get('cycle');
  if (cycle === 'month' || cycle === 'quarter') q.cycle = cycle;
  const keyword = params.get('keyword')?.trim();
  if (keyword) q.keyword = keyword.slice(0, 50);
  if (params.get('failedOnly') === '1') q.failedOnly = true;
  return q;
}

/** The URL query of a roster filter (empty values left out). */
export function rosterSearch(q: RosterQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === '' || v === false) continue;
    p.set(k, v === true ? '1' : String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** The link to the roster filtered to `q`. */
export const rosterLink = (q: RosterQuery) => `/declare/sbqc${rosterSearch(q)}`;
