import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Table, type TableProps, Tooltip } from 'antd';
import type { ColumnType, SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useHiddenColumns } from './column-prefs';
import './list-page.css';

/**
 * One column of a list. The width is required: the table's scroll width is the sum of the shown columns,
 * so a narrow window scrolls between the fixed name and action columns instead of squeezing them.
 */
export interface ListColumn<T> extends Omit<ColumnType<T>, 'key' | 'title' | 'width' | 'fixed' | 'ellipsis'> {
  key: string;
  title: string;
  width: number;
  /**
   * One line cut with … and the whole text in a tooltip: `true` shows the cell's value, a function the
   * text it returns for the row.
   */
  ellipsis?: boolean | ((row: T) => string);
}

export interface ListTableProps<T extends object>
  extends Omit<TableProps<T>, 'columns' | 'scroll' | 'locale' | 'title' | 'summary'> {
  /** The page's key in the user's remembered column choice (column-prefs.ts). */
  pageKey: string;
  columns: ListColumn<T>[];
  /** The name column: it and the columns before it stay fixed on the left and cannot be hidden. */
  nameKey: string;
  /** The operations column, fixed on the right and never hidden. */
  actionKey?: string;
  /** What an empty list says (暂无合同, 没有符合条件的员工 ...). */
  empty: ReactNode;
  /** The rows chosen for a batch action: 已选择 N {unit} · 清空 above the table while there are some. */
  selection?: { count: number; unit: string; onClear: () => void };
  /** Buttons at the right of that row, before the column chooser. */
  extra?: ReactNode;
  /** A summary row (合计) laid out over the shown columns, by their keys. */
  summary?: (shownKeys: string[]) => ReactNode;
  /** In a white card of its own (a page whose table is not already in a Card). */
  card?: boolean;
}

/** The narrowest the name column gets in a narrow window (names wrap rather than being cut). */
const MIN_NAME_WIDTH = 160;
/** What a narrow window keeps for the columns that scroll between the fixed ones. */
const SCROLL_ROOM = 240;

/** The width of the element, followed as the window changes (0 until measured). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const seen = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  return [ref, width] as const;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function toColumn<T extends object>(
  c: ListColumn<T>,
  fixed: 'left' | 'right' | undefined,
  title: ReactNode = c.title,
): ColumnType<T> {
  const { ellipsis, render, ...rest } = c;
  if (!ellipsis) return { ...rest, title, render, fixed };
  return {
    ...rest,
    title,
    fixed,
    ellipsis: { showTitle: false },
    render: (value: unknown, row: T, index: number) => {
      const shown = render ? render(value, row, index) : text(value) || '—';
      const tip = typeof ellipsis === 'function' ? ellipsis(row) : text(value);
      return (
        <Tooltip title={tip || undefined} placement="topLeft">
          <span className="dzy-list-ellipsis">{shown as ReactNode}</span>
        </Tooltip>
      );
    },
  };
}

/** 列设置: the columns the user may hide, remembered for them on this page. */
function ColumnChooser<T>({
  columns,
  hidden,
  onChange,
}: {
  columns: ListColumn<T>[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
}) {
  const content = (
    <div className="dzy-list-chooser">
      <Checkbox.Group
        value={columns.filter((c) => !hidden.includes(c.key)).map((c) => c.key)}
        options={columns.map((c) => ({ value: c.key, label: c.title }))}
        onChange={(shown) => onChange(columns.map((c) => c.key).filter((k) => !shown.includes(k)))}
      />
      <Button type="link" size="small" disabled={hidden.length === 0} onClick={() => onChange([])}>
        显示全部列
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title="显示的列" content={content}>
      <Tooltip title="列设置">
        <Button type="text" size="small" icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  );
}

/** 已选择 N 份合同 · 清空: the selection above a list with batch actions. */
function SelectionNote({ count, unit, onClear }: { count: number; unit: string; onClear: () => void }) {
  return (
    <span className="dzy-list-selection">
      已选择 <b>{count}</b> {unit}
      <Button type="link" size="small" onClick={onClear}>
        清空
      </Button>
    </span>
  );
}

/**
 * The table of a list page (docs/decisions/web.md, "One list page"): fixed name and action columns, long
 * text cut with a tooltip, the scroll width from the shown columns, and a column chooser remembered per
 * user. Paging, sorting and selection are the page's, passed as to antd's Table.
 */
export function ListTable<T extends object>({
  pageKey,
  columns,
  nameKey,
  actionKey,
  empty,
  selection,
  extra,
  card = false,
  summary,
  rowSelection,
  ...table
}: ListTableProps<T>) {
  const [hidden, setHidden] = useHiddenColumns(pageKey);
  const [ref, width] = useWidth();
  const nameAt = columns.findIndex((c) => c.key === nameKey);
  const locked = (c: ListColumn<T>, i: number) => i <= nameAt || c.key === actionKey;
  const hideable = columns.filter((c, i) => !locked(c, i));
  const shown = columns.filter((c, i) => locked(c, i) || !hidden.includes(c.key));
  const selectionWidth = rowSelection ? Number(rowSelection.columnWidth ?? 40) : 0;

  // A window too narrow for the fixed columns and some room between them narrows the name column
  // (down to MIN_NAME_WIDTH; the name wraps): the fixed columns never cover the whole table.
  const fixedWidth = shown.reduce(
    (sum, c) => sum + (columns.indexOf(c) <= nameAt || c.key === actionKey ? c.width : 0),
    selectionWidth,
  );
  const name = columns[nameAt];
  const squeeze = width > 0 && name ? Math.max(0, fixedWidth + SCROLL_ROOM - width) : 0;
  const nameWidth = name ? Math.max(Math.min(name.width, MIN_NAME_WIDTH), name.width - squeeze) : 0;
  const widthOf = (c: ListColumn<T>) => (c === name ? nameWidth : c.width);
  const scrollX = shown.reduce((sum, c) => sum + widthOf(c), selectionWidth);

  const chooser =
    hideable.length > 0 ? <ColumnChooser columns={hideable} hidden={hidden} onChange={setHidden} /> : null;
  // The chooser sits in the operations column's header; a table without one has it above the table.
  const chooserAbove = chooser !== null && !shown.some((c) => c.key === actionKey);
  const showHead = (selection?.count ?? 0) > 0 || extra !== undefined || chooserAbove;
  const tableColumns = shown.map((c) => {
    const fixed = columns.indexOf(c) <= nameAt ? 'left' : c.key === actionKey ? 'right' : undefined;
    const title =
      c.key === actionKey && chooser ? (
        <span className="dzy-list-action-title">
          {c.title}
          {chooser}
        </span>
      ) : (
        c.title
      );
    return toColumn({ ...c, width: widthOf(c) }, fixed, title);
  });

  return (
    <div ref={ref} className={card ? 'dzy-list-table dzy-list-card' : 'dzy-list-table'}>
      {showHead && (
        <div className="dzy-list-head">
          <div className="dzy-list-head-left">
            {selection && selection.count > 0 && <SelectionNote {...selection} />}
          </div>
          <div className="dzy-list-head-right">
            {extra}
            {chooserAbove && chooser}
          </div>
        </div>
      )}
      <Table<T>
        size="middle"
        {...table}
        rowSelection={rowSelection ? { columnWidth: selectionWidth, fixed: true, ...rowSelection } : undefined}
        columns={tableColumns}
        scroll={{ x: scrollX }}
        summary={summary ? () => summary(shown.map((c) => c.key)) : undefined}
        locale={{ emptyText: empty }}
      />
    </div>
  );
}

/** The column and order of antd's sorter argument (one sorted column at a time); no order, no sort. */
export function sortOf<T>(sorter: SorterResult<T> | SorterResult<T>[]): {
  field?: string;
  order?: 'ascend' | 'descend';
} {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  return s?.order ? { field: String(s.columnKey), order: s.order } : {};
}
