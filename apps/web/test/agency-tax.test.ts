import { describe, expect, it } from 'vitest';
import { AGENCY_TAX_CHANGE_MSG, agencyTaxChangeProblem } from '../src/features/org/agency-tax.js';

describe('create agency: the tax number checked on change (foundation.md §5)', () => {
  it('6-20 digits stay', () => {
    expect(agencyTaxChangeProblem('123456')).toBeNull();
    expect(agencyTaxChangeProblem('12345678901234567890')).toBeNull();
    expect(agencyTaxChangeProblem('')).toBeNull();
  });

  it('anything else: 税号为6-20位数字 (and the dialog clears the field)', () => {
    expect(AGENCY_TAX_CHANGE_MSG).toBe('税号为6-20位数字');
    for (const v of ['12345', '123456789012345678901', '91330108MA2DY7001X', '12345 6', '１２３４５６'])
      expect(agencyTaxChangeProblem(v)).toBe(AGENCY_TAX_CHANGE_MSG);
  });
});
