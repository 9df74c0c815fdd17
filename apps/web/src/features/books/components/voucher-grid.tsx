import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AUX_KIND_NAMES,
  auxItemsCall,
  type BookAccount,
  balancingAmount,
  fenToChineseUpper,
  fenToYuanText,
  voucherLinesProblem,
  yuanTextToFen,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { AutoComplete, Button, Input, Select, Tooltip } from 'antd';
import { type KeyboardEvent, useRef } from 'react';
import { call } from '../../../lib/request';
import { matchAccounts } from '../api';

/** One row of the grid as typed: amounts stay text until saved (so "1,2" can be corrected). */
export interface GridRow {
  key: number;
  summary: string;
  accountId: number | null;
  /** What the account cell shows or has typed. */
  accountText: string;
  auxItemId: number;
  debit: string;
  credit: string;
}

let nextKey = 1;
export const blankRow = (): GridRow => ({
  key: nextKey++,
  summary: '',
  accountId: null,
  accountText: '',
  auxItemId: 0,
  debit: '',
  credit: '',
});

export const accountLabel = (a: BookAccount) => `${a.code} ${a.fullName}`;

/** Rows that are lines: an account or an amount typed (blank or summary-only rows are ignored on save). */
export const filledRows = (rows: readonly GridRow[]) =>
  // A row with only a 摘要 (copied down by Enter) and no account or amount is not a line.
  rows.filter((r) => r.accountId || r.accountText.trim() || r.debit.trim() || r.credit.trim());

export function rowsToLines(rows: readonly GridRow[]) {
  return filledRows(rows).map((r) => ({
    summary: r.summary.trim(),
    accountId: r.accountId ?? 0,
    auxItemId: r.auxItemId,
    debit: yuanTextToFen(r.debit) ?? Number.NaN,
    credit: yuanTextToFen(r.credit) ?? Number.NaN,
  }));
}

/** The first problem of the grid (amount text, then the shared voucher rules), or null. */
export function gridProblem(rows: readonly GridRow[]): string | null {
  const filled = filledRows(rows);
  for (const [i, r] of filled.entries()) {
    if (yuanTextToFen(r.debit) === null || yuanTextToFen(r.credit) === null)
      return `第${i + 1}行：金额须为数字，最多两位小数`;
  }
  return voucherLinesProblem(rowsToLines(rows).map((l) => ({ ...l, accountId: l.accountId || null })));
}

const COLS = ['summary', 'account', 'debit', 'credit'] as const;
type Col = (typeof COLS)[number];

/**
 * The keyboard-first entry grid (凭证录入): 摘要 | 会计科目 | 借方金额 | 贷方金额. Enter moves to the next
 * cell (after an amount: the next row's 摘要, which takes the row above's when left empty); '=' in an
 * amount cell fills the amount that balances the voucher; the account cell finds by code, name or pinyin
 * initials; the 合计 row shows both totals and the 大写 of the debit total.
 */
export function VoucherGrid({
  bookId,
  chart,
  rows,
  onChange,
  readOnly = false,
}: {
  bookId: number;
  chart: readonly BookAccount[];
  rows: GridRow[];
  onChange: (rows: GridRow[]) => void;
  readOnly?: boolean;
}) {
  const root = useRef<HTMLTableElement>(null);
  const byId = new Map(chart.map((a) => [a.id, a]));
  const set = (i: number, patch: Partial<GridRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const focus = (i: number, col: Col) => {
    // At once when the cell is there (a fast typist's next key must land in it); a row added in this same
    // event is focused once React has rendered it.
    const go = () => {
      const el = root.current?.querySelector<HTMLInputElement>(`[data-cell="${i}:${col}"] input`);
      el?.focus();
      el?.select();
      return Boolean(el);
    };
    if (!go()) setTimeout(go, 0);
  };

  const moveOn = (i: number, col: Col) => {
    const row = rows[i];
    if (!row) return;
    let next: [number, Col];
    if (col === 'summary') next = [i, 'account'];
    else if (col === 'account') next = [i, 'debit'];
    else if (col === 'debit') next = row.debit.trim() ? [i + 1, 'summary'] : [i, 'credit'];
    else next = [i + 1, 'summary'];
    const [ni, ncol] = next;
    let out = rows;
    if (ni >= rows.length) out = [...rows, blankRow()];
    // An empty 摘要 takes the one above (the accountant's habit: one summary for the voucher).
    if (ncol === 'summary' && ni > 0) {
      const target = out[ni];
      const above = out[ni - 1];
      if (target && above && !target.summary.trim() && above.summary.trim())
        out = out.map((r, j) => (j === ni ? { ...r, summary: above.summary } : r));
    }
    if (out !== rows) onChange(out);
    focus(ni, ncol);
  };

  const balance = (i: number, col: 'debit' | 'credit') => {
    const others = rowsToLines(rows.filter((_, j) => j !== i)).map((l) => ({
      debit: Number.isNaN(l.debit) ? 0 : l.debit,
      credit: Number.isNaN(l.credit) ? 0 : l.credit,
    }));
    const b = balancingAmount([...others, { debit: 0, credit: 0 }]);
    const amount = b.debit || b.credit;
    if (amount === 0) return;
    // On the side the user pressed '=' in when it fits, else on the side that balances.
    const side = (col === 'debit' && b.debit) || (col === 'credit' && b.credit) ? col : b.debit ? 'debit' : 'credit';
    set(
      i,
      side === 'debit'
        ? { debit: (b.debit / 100).toFixed(2), credit: '' }
        : { credit: (b.credit / 100).toFixed(2), debit: '' },
    );
    focus(i, side);
  };

  const onKey = (i: number, col: Col) => (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
      if (col === 'account') return; // the picker handles Enter (select, then move on)
      e.preventDefault();
      moveOn(i, col);
    } else if (e.key === '=' && (col === 'debit' || col === 'credit')) {
      e.preventDefault();
      balance(i, col);
    } else if (e.key === 'ArrowUp' && i > 0 && col !== 'account') {
      e.preventDefault();
      focus(i - 1, col);
    } else if (e.key === 'ArrowDown' && i < rows.length - 1 && col !== 'account') {
      e.preventDefault();
      focus(i + 1, col);
    }
  };

  const lines = rowsToLines(rows);
  const debitTotal = lines.reduce((s, l) => s + (Number.isNaN(l.debit) ? 0 : l.debit), 0);
  const creditTotal = lines.reduce((s, l) => s + (Number.isNaN(l.credit) ? 0 : l.credit), 0);

  return (
    <table className="dzy-voucher-grid" data-testid="voucher-grid" ref={root}>
      <colgroup>
        <col style={{ width: 52 }} />
        <col style={{ width: '28%' }} />
        <col />
        <col style={{ width: 150 }} />
        <col style={{ width: 150 }} />
        <col style={{ width: 36 }} />
      </colgroup>
      <thead>
        <tr>
          <th>序号</th>
          <th>摘要</th>
          <th>会计科目</th>
          <th className="num">借方金额</th>
          <th className="num">贷方金额</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => {
          const account = r.accountId ? byId.get(r.accountId) : undefined;
          return (
            <tr key={r.key} data-testid={`grid-row-${i}`}>
              <td className="seq">{i + 1}</td>
              <td data-cell={`${i}:summary`}>
                <Input
                  variant="borderless"
                  value={r.summary}
                  maxLength={100}
                  disabled={readOnly}
                  placeholder={i === 0 ? '摘要' : ''}
                  onChange={(e) => set(i, { summary: e.target.value })}
                  onKeyDown={onKey(i, 'summary')}
                  data-testid={`summary-${i}`}
                />
              </td>
              <td data-cell={`${i}:account`}>
                <AccountCell
                  chart={chart}
                  row={r}
                  disabled={readOnly}
                  testId={`account-${i}`}
                  onPick={(a) => {
                    set(i, { accountId: a.id, accountText: accountLabel(a), auxItemId: 0 });
                    if (a.auxKinds.length === 0) focus(i, 'debit');
                  }}
                  onType={(text) => set(i, { accountText: text, accountId: null, auxItemId: 0 })}
                  onEnterPicked={() => moveOn(i, 'account')}
                />
                {account && account.auxKinds.length > 0 ? (
                  <AuxPicker
                    bookId={bookId}
                    account={account}
                    value={r.auxItemId}
                    disabled={readOnly}
                    onChange={(v) => {
                      set(i, { auxItemId: v });
                      focus(i, 'debit');
                    }}
                  />
                ) : null}
              </td>
              {(['debit', 'credit'] as const).map((side) => (
                <td key={side} className="num" data-cell={`${i}:${side}`}>
                  <Input
                    variant="borderless"
                    className="amount"
                    value={r[side]}
                    disabled={readOnly}
                    inputMode="decimal"
                    onChange={(e) => set(i, { [side]: e.target.value.replace(/[^\d.,-]/g, '') })}
                    onKeyDown={onKey(i, side)}
                    data-testid={`${side}-${i}`}
                  />
                </td>
              ))}
              <td className="ops">
                {readOnly ? null : (
                  <Tooltip title="删除此行">
                    <Button
                      type="text"
                      size="small"
                      tabIndex={-1}
                      icon={<DeleteOutlined />}
                      aria-label="删除此行"
                      onClick={() =>
                        onChange(
                          rows.length > 2
                            ? rows.filter((_, j) => j !== i)
                            : rows.map((x, j) => (j === i ? blankRow() : x)),
                        )
                      }
                    />
                  </Tooltip>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={3} className="total-label">
            <span>合计：</span>
            <span data-testid="voucher-upper">
              {debitTotal === creditTotal && debitTotal !== 0 ? fenToChineseUpper(debitTotal) : ''}
            </span>
            {readOnly ? null : (
              <Button
                type="link"
                size="small"
                tabIndex={-1}
                icon={<PlusOutlined />}
                onClick={() => onChange([...rows, blankRow()])}
                style={{ float: 'right' }}
              >
                增加一行
              </Button>
            )}
          </td>
          <td className="num total" data-testid="debit-total">
            {fenToYuanText(debitTotal)}
          </td>
          <td className={`num total${debitTotal !== creditTotal ? ' off' : ''}`} data-testid="credit-total">
            {fenToYuanText(creditTotal)}
          </td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}

function AccountCell({
  chart,
  row,
  disabled,
  testId,
  onPick,
  onType,
  onEnterPicked,
}: {
  chart: readonly BookAccount[];
  row: GridRow;
  disabled: boolean;
  testId: string;
  onPick: (a: BookAccount) => void;
  onType: (text: string) => void;
  onEnterPicked: () => void;
}) {
  const typing = row.accountId === null;
  const found = typing ? matchAccounts(chart, row.accountText) : [];
  const picked = useRef(false);
  return (
    <AutoComplete
      variant="borderless"
      style={{ width: '100%' }}
      value={row.accountText}
      disabled={disabled}
      options={found.map((a) => ({
        value: String(a.id),
        label: (
          <span className="dzy-account-option">
            <span className="code">{a.code}</span> {a.fullName}
          </span>
        ),
      }))}
      defaultActiveFirstOption
      onSearch={(text) => {
        picked.current = false;
        onType(text);
      }}
      onSelect={(v: string) => {
        const a = chart.find((x) => x.id === Number(v));
        picked.current = true;
        if (a) onPick(a);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
        e.preventDefault();
        // Enter with the account already chosen moves on; while typing, the list's highlighted match is
        // chosen (the first one unless the user moved with the arrows).
        if (!typing) onEnterPicked();
        else {
          const first = found[0];
          setTimeout(() => {
            if (!picked.current && first) {
              picked.current = true;
              onPick(first);
            }
          }, 0);
        }
      }}
      placeholder="编码/名称/拼音首字母"
      data-testid={testId}
      popupMatchSelectWidth={420}
    />
  );
}

/** Picks an item of the account's (first) auxiliary kind; also used by the openings' per-item entry. */
export function AuxPicker({
  bookId,
  account,
  value,
  disabled,
  onChange,
  block = false,
}: {
  bookId: number;
  account: BookAccount;
  value: number;
  disabled: boolean;
  onChange: (id: number) => void;
  /** Fill the cell (the openings dialog) instead of the grid's fixed width. */
  block?: boolean;
}) {
  const kind = account.auxKinds[0];
  const items = useQuery({
    queryKey: [auxItemsCall.path, bookId, kind],
    queryFn: () => call(auxItemsCall, { bookId, kind, pageNum: 1, pageSize: 100 }),
    enabled: Boolean(kind),
  });
  return (
    <Select
      size="small"
      showSearch
      optionFilterProp="label"
      className="dzy-aux-picker"
      style={block ? { width: '100%' } : undefined}
      placeholder={`选择${kind ? AUX_KIND_NAMES[kind] : ''}`}
      value={value || undefined}
      disabled={disabled}
      onChange={onChange}
      options={(items.data?.list ?? [])
        .filter((x) => x.enabled)
        .map((x) => ({ value: x.id, label: `${x.code} ${x.name}` }))}
    />
  );
}
