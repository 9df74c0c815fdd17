import { taxYuanToFen } from '@dzy/shared';

/**
 * Money as shown (tax-bureau.md §5): two decimals and comma thousands, "1234567.5" → "1,234,567.50".
 * Works on the yuan text through integer fen, never floating point; text that is not an amount is shown as it came.
 */
export function formatMoney(yuan: string | null | undefined): string {
  if (yuan === null || yuan === undefined || yuan.trim() === '') return '-';
  const fen = taxYuanToFen(yuan);
  if (fen === null) return yuan;
  const abs = Math.abs(fen);
  const int = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${fen < 0 ? '-' : ''}${int}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * Long strings masked (tax-bureau.md §5): the first 3 characters, ****, the last 4. Values of 7
 * characters or fewer, which that would give away whole, are all stars (as the server's mask).
 */
export function maskLong(value: string | null | undefined): string {
  const chars = Array.from(value ?? '');
  if (chars.length === 0) return '';
  if (chars.length <= 7) return '*'.repeat(chars.length);
  return `${chars.slice(0, 3).join('')}****${chars.slice(-4).join('')}`;
}
