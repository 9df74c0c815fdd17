import { describe, expect, it } from 'vitest';
import { formatCount, formatLimit } from '../src/lib/format.js';

describe('formatCount (issue 18 point 7: counts show 亿 as well as 万)', () => {
  it('plain up to 9999, then 万, then 亿, two decimals cut', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(9999)).toBe('9999');
    expect(formatCount(12345)).toBe('1.23万');
    expect(formatCount(99_999_999)).toBe('9999.99万');
    expect(formatCount(100_000_000)).toBe('1.00亿');
    expect(formatCount(123_456_789)).toBe('1.23亿');
    expect(formatCount(1_999_999_999)).toBe('19.99亿');
  });

  it('an unlimited quantity is ∞, a limit reads like a count', () => {
    expect(formatLimit(null)).toBe('∞');
    expect(formatLimit(250_000_000)).toBe('2.50亿');
  });
});
