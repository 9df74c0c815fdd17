/**
 * Counts over 9999 read as 万 with two decimals (12345 → 1.23万), and from 1亿 on as 亿
 * (123456789 → 1.23亿). Two decimals are cut, not rounded, so 99999999 reads 9999.99万, never 10000.00万.
 */
export function formatCount(n: number): string {
  const cut = (v: number) => (Math.floor(v * 100) / 100).toFixed(2);
  if (n >= 100_000_000) return `${cut(n / 100_000_000)}亿`;
  if (n > 9999) return `${cut(n / 10_000)}万`;
  return String(n);
}

/** An authorised quantity: null means unlimited. */
export function formatLimit(n: number | null): string {
  return n === null ? '∞' : formatCount(n);
}

/** Greeting by the hour of the day. */
export function greeting(date = new Date()): string {
  const h = date.getHours();
  if (h < 6) return '夜深了';
  if (h < 9) return '早上好';
  if (h < 12) return '上午好';
  if (h < 14) return '中午好';
  if (h < 18) return '下午好';
  return '晚上好';
}
