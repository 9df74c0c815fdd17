import { type CSSProperties, useId } from 'react';

export const PRODUCT_NAME = '代账云';

/** The product mark: a cloud carrying a ledger line, in the primary blue. */
export function BrandMark({ size = 28, inverted = false }: { size?: number; inverted?: boolean }) {
  // Each mark needs its own gradient id: a duplicate inside a hidden subtree would blank the others.
  const gradientId = `dzy-mark-${useId().replace(/:/g, '')}`;
  const bg = inverted ? '#ffffff' : `url(#${gradientId})`;
  const fg = inverted ? '#1677ff' : '#ffffff';
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" style={{ flex: 'none', display: 'block' }}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4096ff" />
          <stop offset="1" stopColor="#0958d9" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="14" fill={bg} />
      <path d="M20 42a10 10 0 0 1 1.6-19.9A13 13 0 0 1 46 26a8 8 0 0 1-1 16z" fill={fg} opacity={0.95} />
      <path d="M26 34h12M26 28.5h8" stroke={inverted ? '#ffffff' : '#1677ff'} strokeWidth="3.5" strokeLinecap="round" />
    </svg>
  );
}

/** Mark plus product name, as shown in the top bar and on the sign-in pages. */
export function BrandLogo({
  size = 28,
  inverted = false,
  showName = true,
  style,
}: {
  size?: number;
  inverted?: boolean;
  showName?: boolean;
  style?: CSSProperties;
}) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 10, ...style }}>
      <BrandMark size={size} inverted={inverted} />
      {showName && (
        <span
          style={{
            fontSize: Math.round(size * 0.64),
            fontWeight: 600,
            letterSpacing: 1,
            color: inverted ? '#ffffff' : 'inherit',
            whiteSpace: 'nowrap',
          }}
        >
          {PRODUCT_NAME}
        </span>
      )}
    </span>
  );
}
