import { Empty, Tooltip } from 'antd';
import { fenText } from '../api';

/**
 * Small charts drawn with CSS and SVG (no chart library): a month trend of two series side by side, and
 * horizontal bars of the parts of a whole. The numbers are always in the tables beside them as well.
 */

export interface TrendPoint {
  label: string;
  a: number;
  b: number;
}

/** Two bars per month (销项 blue, 进项 green), scaled to the largest; the value on hover. */
export function TrendBars({
  points,
  names,
  testId,
}: {
  points: TrendPoint[];
  names: [string, string];
  testId?: string;
}) {
  const max = Math.max(1, ...points.map((p) => Math.max(Math.abs(p.a), Math.abs(p.b))));
  const H = 160;
  const W = 640;
  const slot = W / Math.max(1, points.length);
  const bar = Math.min(18, slot / 3);
  const y = (v: number) => Math.round((Math.max(0, v) / max) * (H - 10));
  return (
    <div className="dzy-pool-chart" data-testid={testId}>
      <div className="dzy-pool-legend">
        <span>
          <i className="dzy-pool-dot dzy-pool-a" />
          {names[0]}
        </span>
        <span>
          <i className="dzy-pool-dot dzy-pool-b" />
          {names[1]}
        </span>
      </div>
      <svg
        viewBox={`0 0 ${W} ${H + 22}`}
        className="dzy-pool-svg"
        role="img"
        aria-label={`${names[0]}与${names[1]}走势`}
      >
        <line x1={0} y1={H} x2={W} y2={H} stroke="#d9d9d9" />
        {points.map((p, i) => {
          const x = i * slot + slot / 2;
          return (
            <g key={p.label}>
              <rect x={x - bar - 1} y={H - y(p.a)} width={bar} height={y(p.a)} className="dzy-pool-a" rx={2}>
                <title>{`${p.label} ${names[0]} ${fenText(p.a)}`}</title>
              </rect>
              <rect x={x + 1} y={H - y(p.b)} width={bar} height={y(p.b)} className="dzy-pool-b" rx={2}>
                <title>{`${p.label} ${names[1]} ${fenText(p.b)}`}</title>
              </rect>
              <text x={x} y={H + 16} textAnchor="middle" className="dzy-pool-axis">
                {p.label}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}

/** Parts of a whole as horizontal bars with their share. */
export function ShareBars({
  parts,
  testId,
  tone = 'a',
}: {
  parts: { key: string; name: string; value: number }[];
  testId?: string;
  tone?: 'a' | 'b';
}) {
  const total = parts.reduce((s, p) => s + Math.max(0, p.value), 0);
  if (parts.length === 0 || total === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  return (
    <div className="dzy-pool-share" data-testid={testId}>
      {parts.map((p) => {
        const pct = total > 0 ? (Math.max(0, p.value) * 100) / total : 0;
        return (
          <div className="dzy-pool-share-row" key={p.key}>
            <span className="dzy-pool-share-name" title={p.name}>
              {p.name}
            </span>
            <Tooltip title={fenText(p.value)}>
              <span className="dzy-pool-share-track">
                <span className={`dzy-pool-share-fill dzy-pool-${tone}`} style={{ width: `${pct}%` }} />
              </span>
            </Tooltip>
            <span className="dzy-pool-share-pct">{pct.toFixed(1)}%</span>
          </div>
        );
      })}
    </div>
  );
}
