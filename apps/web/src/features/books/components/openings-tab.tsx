import {
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
import { Alert, Button, Input, Segmented, Space, Table } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useChart } from '../api';

type Draft = Record<number, { balance: string; ytdDebit: string; ytdCredit: string }>;
const txt = (f: number) => (f ? (f / 100).toFixed(2) : '');

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
  const [category, setCategory] = useState('asset');
  const [saving, setSaving] = useState(false);
  const midYear = !book.startPeriod.endsWith('-01');
  useEffect(() => {
    const d: Draft = {};
    for (const r of openings.data?.rows ?? [])
      if (r.auxItemId === 0)
        d[r.accountId] = { balance: txt(r.balance), ytdDebit: txt(r.ytdDebit), ytdCredit: txt(r.ytdCredit) };
    setDraft(d);
  }, [openings.data]);
  const accounts = chart.data ?? [];
  const canEdit = editable && (openings.data?.editable ?? false);

  /** Leaf amounts from the draft; parents summed from their leaves. */
  const amounts = useMemo(() => {
    const m = new Map<number, { balance: number; ytdDebit: number; ytdCredit: number }>();
    const byId = new Map(accounts.map((a) => [a.id, a]));
    for (const a of accounts) {
      if (!a.isLeaf) continue;
      const d = draft[a.id];
      const v = {
        balance: yuanTextToFen(d?.balance ?? '') ?? 0,
        ytdDebit: yuanTextToFen(d?.ytdDebit ?? '') ?? 0,
        ytdCredit: yuanTextToFen(d?.ytdCredit ?? '') ?? 0,
      };
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
  }, [accounts, draft]);

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
      const rows = accounts
        .filter((a) => a.isLeaf)
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
      const r = await call(saveOpeningsCall, { bookId: book.bookId, rows });
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
              [field]: e.target.value.replace(/[^\d.,-]/g, ''),
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
              <span style={{ paddingLeft: (a.level - 1) * 16, fontWeight: a.isLeaf ? 400 : 600 }}>{a.name}</span>
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
    </div>
  );
}
