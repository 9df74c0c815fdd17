import { describe, expect, it } from 'vitest';
import { settingsDot } from '../src/app/layout/settings-dot.js';

describe('red dots on the settings menus (foundation.md §2)', () => {
  it('the settings areas carry one: contract, customer and charge settings, permission settings', () => {
    for (const path of ['/contract/htsz', '/customer/khsz', '/contractFee/sfsz', '/nested/manage/role'])
      expect(settingsDot(path, 'dls')).toBe(true);
    expect(settingsDot('/contract/htsz', 'kd')).toBe(true);
    expect(settingsDot('/contract/htsz', null)).toBe(true);
  });

  it('other entries do not, nor any for an accounting factory (kjgc)', () => {
    for (const path of ['/contract/htgl', '/customer/khgl', '/contract/htsz/fwxm', '/nested/manage/staff'])
      expect(settingsDot(path, 'dls')).toBe(false);
    expect(settingsDot('/contract/htsz', 'kjgc')).toBe(false);
    expect(settingsDot('/nested/manage/role', 'kjgc')).toBe(false);
  });
});
