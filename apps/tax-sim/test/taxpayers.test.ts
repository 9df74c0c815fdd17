import { describe, expect, it } from 'vitest';
import { makeTaxpayer, REGISTERED_NAMES, SCENARIO_TAXPAYERS, SCENARIOS } from '../src/index.js';

// A taxpayer is the same whichever way the simulator first meets it: a login that sends a name, one that
// sends none, or a registered name. Only the name itself follows what was given.

const NUMBERS = [
  ...SCENARIO_TAXPAYERS.map((s) => s.qysh),
  ...Object.keys(REGISTERED_NAMES),
  '91320213MA9R83E76D',
  '92321281490069755R',
  '91120105MA31ABE4XJ',
];

describe('makeTaxpayer', () => {
  it('draws the same registration, officers and phone with and without a name', () => {
    for (const qysh of NUMBERS) {
      const unnamed = makeTaxpayer(qysh, SCENARIOS.clean);
      const named = makeTaxpayer(qysh, SCENARIOS.clean, '某某测试有限公司');
      const { qymc: a, ...restUnnamed } = unnamed.info;
      const { qymc: b, ...restNamed } = named.info;
      expect(restNamed).toEqual(restUnnamed);
      expect(named.phone).toBe(unnamed.phone);
      expect(b).toBe(REGISTERED_NAMES[qysh] ?? '某某测试有限公司');
      expect(a).toBe(REGISTERED_NAMES[qysh] ?? a);
      expect(a).toMatch(/有限公司$/);
    }
  });

  it('keeps the data of a taxpayer met without a name as it was', () => {
    // Pinned: the server's batch check logs in without a name, so its figures must not move.
    const t = makeTaxpayer('91320213MA9R83E76D', SCENARIOS.clean).info;
    expect({ qymc: t.qymc, qyxz: t.qyxz, fddbrxm: t.fddbrxm, djrq: t.djrq, djxh: t.djxh }).toEqual({
      qymc: '江苏远盛建材有限公司',
      qyxz: '0',
      fddbrxm: '彭华宏',
      djrq: '2012-07-01',
      djxh: '13279452240504867919',
    });
  });
});
