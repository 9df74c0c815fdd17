import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { type CSSProperties, createElement, type ReactElement } from 'react';

const ICON_STYLE: CSSProperties = {
  display: 'inline-flex',
  alignItems: 'center',
  lineHeight: 0,
  verticalAlign: '-0.125em',
  fontStyle: 'normal',
  textAlign: 'center',
};

function node(n: AbstractNode, key: number): ReactElement {
  const props: Record<string, unknown> = { key };
  // React's names: class → className, fill-rule → fillRule.
  for (const [name, value] of Object.entries(n.attrs)) {
    props[name === 'class' ? 'className' : name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = value;
  }
  return createElement(n.tag, props, ...(n.children ?? []).map((c, i) => node(c, i)));
}

/**
 * One of antd's icons drawn from its SVG definition (@ant-design/icons-svg, what @ant-design/icons draws),
 * without the icon component's context, style injection and colour code: for the pages that load before
 * antd (the sign-in page, the guards, the route error page). Same size and alignment as antd's icons; decorative (the text beside it says what it means).
 */
export function PlainIcon({
  icon,
  className,
  style,
}: {
  icon: IconDefinition;
  className?: string;
  style?: CSSProperties;
}) {
  const def = typeof icon.icon === 'function' ? icon.icon('currentColor', '#e6f4ff') : icon.icon;
  return (
    <span
      aria-hidden="true"
      className={className ? `dzy-icon ${className}` : 'dzy-icon'}
      style={{ ...ICON_STYLE, ...style }}
    >
      <svg {...def.attrs} width="1em" height="1em" fill="currentColor" aria-hidden="true" focusable="false">
        {def.children?.map((c, i) => node(c, i))}
      </svg>
    </span>
  );
}
