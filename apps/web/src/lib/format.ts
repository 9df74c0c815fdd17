/** Counts over 9999 read as 万 with two decimals (12345 → 1.23万). */
export function formatCount(n: number): string {
  if (n > 9999) return `${(n / 10000).toFixed(2)}万`;
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
