import { isValidUscc, MOBILE_RE } from '@dzy/shared';
import { describe, expect, it } from 'vitest';
import {
  DEMO_REGIONS,
  generateEnterprises,
  generatePersonName,
  mulberry32,
  orgCodeCheckChar,
} from '../src/db/seed/demo-data.js';

describe('demo enterprises', () => {
  const list = generateEnterprises(25_000, 20240601);

  it('generates the requested number', () => {
    expect(list).toHaveLength(25_000);
    expect(generateEnterprises(0, 1)).toEqual([]);
    expect(() => generateEnterprises(-1, 1)).toThrow();
  });

  it('has unique names and tax numbers', () => {
    expect(new Set(list.map((e) => e.qymc)).size).toBe(list.length);
    expect(new Set(list.map((e) => e.qysh)).size).toBe(list.length);
  });

  it('gives every enterprise a valid unified social credit code built on its district', () => {
    for (const e of list) {
      expect(isValidUscc(e.qysh), e.qysh).toBe(true);
      expect(e.qysh.slice(2, 8)).toBe(e.ssqx);
      const org = e.qysh.slice(8, 16);
      expect(orgCodeCheckChar(org), e.qysh).toBe(e.qysh.charAt(16));
    }
  });

  it('uses 6-digit province, city and district codes that nest', () => {
    for (const e of list) {
      expect(e.sssf).toMatch(/^\d{2}0000$/);
      expect(e.ssds).toMatch(/^\d{4}00$/);
      expect(e.ssqx).toMatch(/^\d{6}$/);
      expect(e.ssds.slice(0, 2)).toBe(e.sssf.slice(0, 2));
      expect(e.ssqx.slice(0, 4)).toBe(e.ssds.slice(0, 4));
      expect(e.sssfmc && e.ssdsmc && e.ssqxmc).toBeTruthy();
      expect(e.address.startsWith(e.sssfmc)).toBe(true);
    }
    expect(new Set(list.map((e) => e.sssf)).size).toBeGreaterThanOrEqual(10);
  });

  it('looks like a real client book', () => {
    const general = list.filter((e) => e.qyxz === '0').length / list.length;
    expect(general).toBeGreaterThan(0.25);
    expect(general).toBeLessThan(0.35);
    for (const e of list) {
      expect(e.qyxz === '0' || e.qyxz === '1').toBe(true);
      expect(e.phone).toMatch(MOBILE_RE);
      expect(e.contact).toMatch(/^\p{Script=Han}{2,3}$/u);
      expect(e.qymc).toMatch(/^\p{Script=Han}+$/u);
    }
    const companies = list.filter((e) => e.qymc.endsWith('公司'));
    expect(companies.length / list.length).toBeGreaterThan(0.85);
    for (const e of companies) expect(e.qymc.startsWith(e.ssdsmc.slice(0, -1))).toBe(true);
  });

  it('is deterministic for a seed and varies between seeds', () => {
    expect(generateEnterprises(500, 7)).toEqual(generateEnterprises(500, 7));
    expect(generateEnterprises(25_000, 20240601)).toEqual(list);
    expect(generateEnterprises(50, 8)).not.toEqual(generateEnterprises(50, 7));
  });
});

describe('helpers', () => {
  it('mulberry32 repeats for a seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('orgCodeCheckChar matches real organisation codes', () => {
    expect(orgCodeCheckChar('M000100Y')).toBe('4'); // 91350100M000100Y43
    expect(orgCodeCheckChar('10000803')).toBe('4'); // 911100001000080343
    expect(orgCodeCheckChar('MA1FL4B2')).toBe('4'); // 91310000MA1FL4B24G
  });

  it('generatePersonName gives two- or three-character names', () => {
    const rand = mulberry32(1);
    for (let i = 0; i < 200; i++) expect(generatePersonName(rand)).toMatch(/^\p{Script=Han}{2,3}$/u);
  });

  it('DEMO_REGIONS holds real provinces and cities', () => {
    const zj = DEMO_REGIONS.find((p) => p.code === '330000');
    expect(zj?.name).toBe('浙江省');
    const hz = zj?.cities.find((c) => c.code === '330100');
    expect(hz?.name).toBe('杭州市');
    expect(hz?.districts).toContainEqual({ code: '330106', name: '西湖区' });
    expect(DEMO_REGIONS.find((p) => p.code === '110000')?.cities[0]?.name).toBe('北京市');
  });
});
