/**
 * The create-agency tax number (foundation.md §5): required, 6-20 letters or digits for the form, and
 * when the field is changed (the input's change on leaving it) 6-20 digits, else 税号为6-20位数字 and the
 * field is cleared.
 */
export const AGENCY_TAX_CHANGE_RE = /^\d{6,20}$/;
export const AGENCY_TAX_CHANGE_MSG = '税号为6-20位数字';

/** What the change check says about a value: null when it may stay, else the warning (and the field clears). */
export function agencyTaxChangeProblem(value: string): string | null {
  if (value === '') return null;
  return AGENCY_TAX_CHANGE_RE.test(value) ? null : AGENCY_TAX_CHANGE_MSG;
}
