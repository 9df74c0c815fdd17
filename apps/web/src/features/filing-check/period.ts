/** A 所属期 in few characters: 2026-10 (month), 2026-07~09 (quarter), 2025年度 (year). */
export function periodLabel(q: string, z: string) {
  if (q.slice(0, 7) === z.slice(0, 7)) return q.slice(0, 7);
  if (q.slice(5, 10) === '01-01' && z.slice(5, 10) === '12-31' && q.slice(0, 4) === z.slice(0, 4))
    return `${q.slice(0, 4)}年度`;
  return q.slice(0, 4) === z.slice(0, 4) ? `${q.slice(0, 7)}~${z.slice(5, 7)}` : `${q.slice(0, 7)}~${z.slice(0, 7)}`;
}
