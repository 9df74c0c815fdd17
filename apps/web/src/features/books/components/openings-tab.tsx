import {
  AUX_KIND_NAMES,
  type BookAccount,
  type BookInfo,
  CATEGORY_NAMES,
  DIRECTION_NAMES,
  fenToYuanText,
  openingsCall,
  saveOpeningsCall,
  yuanTextToFen,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Segmented, Space, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useChart } from '../api';
import { AuxPicker } from './voucher-grid';

type Amounts = { balance: string; ytdDebit: string; ytdCredit: string };
type Draft = Record<number, Amounts>;
/** Per-item openings of accounts with 辅助核算 (e.g. 应收账款 by 客户): account id → its items' rows. */
type AuxDraft = Record<number, (Amounts & { auxItemId: number })[]>;
const txt = (f: number) => (f ? (f / 100).toFixed(2) : '');
const EMPTY: Amounts = { balance: '', ytdDebit: '', ytdCredit: '' };
const cleanAmount = (v: string) => v.replace(/[^\d.,-]/g, '');
const fenOf = (a: Amounts | undefined) => ({
  balance: yuanTextToFen(a?.balance ?? '') ?? 0,
  ytdDebit: yuanTextToFen(a?.ytdDebit ?? '') ?? 0,
  ytdCredit: yuanTextToFen(a?.ytdCredit ?? '') ?? 0,
});

/**
 * 期初余额: leaf accounts' balances at the start period (on the account's side), this year's amounts before
 * it when the book starts mid-year, parents summed, and the 试算平衡 result (借方合计 = 贷方合计).
 */
export function OpeningsTab({ book, editable }: { book: BookInfo; editable: boolean }) {
  const chart = useChart(book.bookId);
  const qc = useQueryClient();
  const openings = useQuery({
    queryKey: [openingsCall.path, book.bookId],
    queryFn: () => call(openingsCall, { bookId: book.bookId }),
  });
  const [draft, setDraft] = useState<Draft>({});
  const [auxDraft, setAuxDraft] = useState<AuxDraft>({});
  const [auxOf, setAuxOf] = useState<BookAccount | null>(null);
  const [category, setCategory] = useState('asset');
  const [saving, setSaving] = useState(false);
  const midYear = !book.startPeriod.endsWith('-01');
  useEffect(() => {
    const d: Draft = {};
    const x: AuxDraft = {};
    for (const r of openings.data?.rows ?? []) {
      const amounts = { balance: txt(r.balance), ytdDebit: txt(r.ytdDebit), ytdCredit: txt(r.ytdCredit) };
      if (r.auxItemId === 0) d[r.accountId] = amounts;
      else x[r.accountId] = [...(x[r.accountId] ?? []), { auxItemId: r.auxItemId, ...amounts }];
    }
    setDraft(d);
    setAuxDraft(x);
  }, [openings.data]);
  const accounts = chart.data ?? [];
  const canEdit = editable && (openings.data?.editable ?? false);

  /** Leaf amounts from the draft; parents summed from their leaves. */
  const amounts = useMemo(() => {
    const m = new Map<number, { balance: number; ytdDebit: number; ytdCredit: number }>();
    const byId = new Map(accounts.map((a) => [a.id, a]));
    for (const a of accounts) {
      if (!a.isLeaf) continue;
      // An account with 辅助核算 is the sum of its items' openings.
      const v =
        a.auxKinds.length > 0
          ? (auxDraft[a.id] ?? []).map(fenOf).reduce(
              (t, r) => ({
                balance: t.balance + r.balance,
                ytdDebit: t.ytdDebit + r.ytdDebit,
                ytdCredit: t.ytdCredit + r.ytdCredit,
              }),
              { balance: 0, ytdDebit: 0, ytdCredit: 0 },
            )
          : fenOf(draft[a.id]);
      for (let x: BookAccount | undefined = a; x; x = x.parentId ? byId.get(x.parentId) : undefined) {
        const s = m.get(x.id) ?? { balance: 0, ytdDebit: 0, ytdCredit: 0 };
        // A child on the other side than its parent (累计折旧 under 固定资产 never is; kept general) counts negative.
        const sign = x.direction === a.direction ? 1 : -1;
        m.set(x.id, {
          balance: s.balance + sign * v.balance,
          ytdDebit: s.ytdDebit + v.ytdDebit,
          ytdCredit: s.ytdCredit + v.ytdCredit,
        });
      }
    }
    return m;
  }, [accounts, draft, auxDraft]);

  const trial = useMemo(() => {
    let debit = 0;
    let credit = 0;
    for (const a of accounts) {
      if (!a.isLeaf) continue;
      const b = amounts.get(a.id)?.balance ?? 0;
      if (a.direction === 'debit') debit += b;
      else credit += b;
    }
    return { debit, credit, balanced: debit === credit };
  }, [accounts, amounts]);

  const save = async () => {
    setSaving(true);
    try {
      const parsed = (a: BookAccount, d: Amounts, what: string) => {
        const balance = yuanTextToFen(d.balance);
        const ytdDebit = yuanTextToFen(d.ytdDebit);
        const ytdCredit = yuanTextToFen(d.ytdCredit);
        if (balance === null || ytdDebit === null || ytdCredit === null)
          throw new Error(`${a.code} ${a.fullName}${what}：金额须为数字，最多两位小数`);
        return { balance, ytdDebit, ytdCredit };
      };
      // Items' rows as drafted, and a zero row for each saved item the user removed (the call deletes zero rows).
      const auxRows = accounts
        .filter((a) => a.isLeaf && a.auxKinds.length > 0)
        .flatMap((a) => {
          const kept = auxDraft[a.id] ?? [];
          const removed = (openings.data?.rows ?? []).filter(
            (r) => r.accountId === a.id && r.auxItemId > 0 && !kept.some((k) => k.auxItemId === r.auxItemId),
          );
          return [
            ...kept.map((k) => ({ accountId: a.id, auxItemId: k.auxItemId, ...parsed(a, k, '（辅助核算）') })),
            ...removed.map((r) => ({ accountId: a.id, auxItemId: r.auxItemId, balance: 0, ytdDebit: 0, ytdCredit: 0 })),
          ];
        });
      const rows = accounts
        .filter((a) => a.isLeaf && a.auxKinds.length === 0)
        .flatMap((a) => {
          const d = draft[a.id];
          const saved = openings.data?.rows.find((r) => r.accountId === a.id && r.auxItemId === 0);
          if (!d && !saved) return [];
          const balance = yuanTextToFen(d?.balance ?? '');
          const ytdDebit = yuanTextToFen(d?.ytdDebit ?? '');
          const ytdCredit = yuanTextToFen(d?.ytdCredit ?? '');
          if (balance === null || ytdDebit === null || ytdCredit === null)
            throw new Error(`${a.code} ${a.fullName}：金额须为数字，最多两位小数`);
          return [{ accountId: a.id, auxItemId: 0, balance, ytdDebit, ytdCredit }];
        });
      const r = await call(saveOpeningsCall, { bookId: book.bookId, rows: [...rows, ...auxRows] });
      if (r)
        toast(
          r.trial.balanced ? 'success' : 'warning',
          r.trial.balanced ? '已保存，期初试算平衡' : '已保存，但期初试算不平衡',
        );
      await qc.invalidateQueries({
        predicate: (q) => String(q.queryKey[0]).startsWith('books/') || String(q.queryKey[0]).startsWith('user/setUp'),
      });
    } catch (e) {
      if (e instanceof Error && !('code' in e)) toast('warning', e.message);
    } finally {
      setSaving(false);
    }
  };

  const cell = (a: BookAccount, field: 'balance' | 'ytdDebit' | 'ytdCredit') =>
    a.isLeaf && canEdit && a.auxKinds.length === 0 ? (
      <Input
        className="dzy-opening-input"
        size="small"
        value={draft[a.id]?.[field] ?? ''}
        onChange={(e) =>
          setDraft({
            ...draft,
            [a.id]: {
              balance: '',
              ytdDebit: '',
              ytdCredit: '',
              ...draft[a.id],
              [field]: cleanAmount(e.target.value),
            },
          })
        }
        data-testid={`opening-${field}-${a.code}`}
      />
    ) : (
      <span className="num">{fenToYuanText(amounts.get(a.id)?.[field] ?? 0)}</span>
    );

  const present = ['asset', 'liability', 'common', 'equity', 'cost', 'profit'].filter((c) =>
    accounts.some((a) => a.category === c),
  );
  return (
    <div>
      <div className={`dzy-trial ${trial.balanced ? 'ok' : 'bad'}`} data-testid="opening-trial">
        <span>
          期初借方合计 <strong className="num">{fenToYuanText(trial.debit)}</strong>
        </span>
        <span>
          期初贷方合计 <strong className="num">{fenToYuanText(trial.credit)}</strong>
        </span>
        <span>
          差额 <strong className="num">{fenToYuanText(trial.debit - trial.credit)}</strong>
        </span>
        <strong className="state">{trial.balanced ? '试算平衡' : '试算不平衡'}</strong>
        <span style={{ flex: 1 }} />
        {canEdit ? (
          <Button type="primary" loading={saving} onClick={save} data-testid="save-openings">
            保存期初
          </Button>
        ) : null}
      </div>
      {openings.data && !openings.data.editable ? (
        <Alert type="info" showIcon message="启用期间已结账，期初余额只读" style={{ marginBottom: 8 }} />
      ) : null}
      <Space style={{ marginBottom: 8 }}>
        <Segmented
          value={category}
          onChange={(v) => setCategory(String(v))}
          options={present.map((c) => ({ value: c, label: CATEGORY_NAMES[c as keyof typeof CATEGORY_NAMES] }))}
        />
      </Space>
      <Table<BookAccount>
        className="dzy-chart-table"
        size="small"
        rowKey="id"
        loading={chart.isLoading || openings.isLoading}
        pagination={false}
        scroll={{ y: 'calc(100vh - 340px)' }}
        dataSource={accounts.filter((a) => a.category === category)}
        columns={[
          { key: 'code', title: '科目编码', dataIndex: 'code', width: 110 },
          {
            key: 'name',
            title: '科目名称',
            width: 220,
            render: (_, a) => (
              <span style={{ paddingLeft: (a.level - 1) * 16, fontWeight: a.isLeaf ? 400 : 600 }}>
                {a.name}
                {a.isLeaf && a.auxKinds.length > 0 ? (
                  <Button type="link" size="small" onClick={() => setAuxOf(a)} data-testid={`opening-aux-${a.code}`}>
                    {canEdit ? '按' : '查看'}
                    {AUX_KIND_NAMES[a.auxKinds[0] as keyof typeof AUX_KIND_NAMES]}
                    {canEdit ? '录入' : ''}
                  </Button>
                ) : null}
              </span>
            ),
          },
          { key: 'dir', title: '方向', width: 60, render: (_, a) => DIRECTION_NAMES[a.direction] },
          ...(midYear
            ? [
                {
                  key: 'ytdDebit',
                  title: '本年累计借方',
                  width: 150,
                  align: 'right' as const,
                  render: (_: unknown, a: BookAccount) => cell(a, 'ytdDebit'),
                },
                {
                  key: 'ytdCredit',
                  title: '本年累计贷方',
                  width: 150,
                  align: 'right' as const,
                  render: (_: unknown, a: BookAccount) => cell(a, 'ytdCredit'),
                },
              ]
            : []),
          {
            key: 'balance',
            title: '期初余额',
            width: 160,
            align: 'right' as const,
            render: (_, a) => cell(a, 'balance'),
          },
        ]}
      />
      {auxOf ? (
        <AuxOpeningsDialog
          bookId={book.bookId}
          account={auxOf}
          midYear={midYear}
          editable={canEdit}
          rows={auxDraft[auxOf.id] ?? []}
          onClose={() => setAuxOf(null)}
          onOk={(rows) => {
            setAuxDraft({ ...auxDraft, [auxOf.id]: rows });
            setAuxOf(null);
          }}
        />
      ) : null}
    </div>
  );
}

/** One account's openings by auxiliary item (客户, 供应商 …); the account's opening is their sum. */
function AuxOpeningsDialog({
  bookId,
  account,
  midYear,
  editable,
  rows: initial,
  onClose,
  onOk,
}: {
  bookId: number;
  account: BookAccount;
  midYear: boolean;
  editable: boolean;
  rows: (Amounts & { auxItemId: number })[];
  onClose: () => void;
  onOk: (rows: (Amounts & { auxItemId: number })[]) => void;
}) {
  const [rows, setRows] = useState(initial.length ? initial : [{ auxItemId: 0, ...EMPTY }]);
  const kindName = AUX_KIND_NAMES[account.auxKinds[0] as keyof typeof AUX_KIND_NAMES];
  const set = (i: number, patch: Partial<Amounts & { auxItemId: number }>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const total = rows.reduce((t, r) => t + (yuanTextToFen(r.balance) ?? 0), 0);
  const confirm = () => {
    const filled = rows.filter((r) => r.auxItemId || r.balance || r.ytdDebit || r.ytdCredit);
    if (filled.some((r) => !r.auxItemId)) return toast('warning', `请为每一行选择${kindName}`);
    const ids = filled.map((r) => r.auxItemId);
    if (new Set(ids).size !== ids.length) return toast('warning', `同一${kindName}只能录入一行`);
    const bad = filled.find(
      (r) =>
        yuanTextToFen(r.balance) === null || yuanTextToFen(r.ytdDebit) === null || yuanTextToFen(r.ytdCredit) === null,
    );
    if (bad) return toast('warning', '金额须为数字，最多两位小数');
    onOk(filled);
  };
  const amount = (i: number, field: keyof Amounts) =>
    editable ? (
      <Input
        className="dzy-opening-input"
        size="small"
        value={rows[i]?.[field] ?? ''}
        onChange={(e) => set(i, { [field]: cleanAmount(e.target.value) })}
        data-testid={`aux-opening-${field}-${i}`}
      />
    ) : (
      <span className="num">{fenToYuanText(yuanTextToFen(rows[i]?.[field] ?? '') ?? 0)}</span>
    );
  return (
    <Modal
      open
      width={midYear ? 760 : 560}
      title={`${account.code} ${account.fullName}：按${kindName}录入期初`}
      onCancel={onClose}
      onOk={editable ? confirm : onClose}
      okText={editable ? '确定' : '关闭'}
      cancelButtonProps={editable ? {} : { style: { display: 'none' } }}
    >
      <Table
        size="small"
        rowKey={(_, i) => String(i)}
        pagination={false}
        dataSource={rows}
        columns={[
          {
            key: 'item',
            title: kindName,
            render: (_, r, i) => (
              <AuxPicker
                bookId={bookId}
                account={account}
                value={r.auxItemId}
                disabled={!editable}
                onChange={(id) => set(i, { auxItemId: id })}
                block
              />
            ),
          },
          ...(midYear
            ? [
                {
                  key: 'ytdDebit',
                  title: '本年累计借方',
                  width: 130,
                  render: (_: unknown, _r: unknown, i: number) => amount(i, 'ytdDebit'),
                },
                {
                  key: 'ytdCredit',
                  title: '本年累计贷方',
                  width: 130,
                  render: (_: unknown, _r: unknown, i: number) => amount(i, 'ytdCredit'),
                },
              ]
            : []),
          { key: 'balance', title: '期初余额', width: 140, render: (_, _r, i) => amount(i, 'balance') },
          ...(editable
            ? [
                {
                  key: 'op',
                  title: '操作',
                  width: 60,
                  render: (_: unknown, _r: unknown, i: number) => (
                    <Button type="link" size="small" danger onClick={() => setRows(rows.filter((_x, j) => j !== i))}>
                      删除
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8 }}>
        {editable ? (
          <Button
            size="small"
            onClick={() => setRows([...rows, { auxItemId: 0, ...EMPTY }])}
            data-testid="aux-opening-add"
          >
            添加一行
          </Button>
        ) : (
          <span />
        )}
        <span>
          合计 <strong className="num">{fenToYuanText(total)}</strong>
        </span>
      </div>
    </Modal>
  );
}
