import { type HolidayDay, halfWidth, isCalendarDay, listHolidaysCall, saveHolidaysCall } from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../lib/feedback';
import { call } from '../../lib/request';

const KIND_NAMES: Readonly<Record<HolidayDay['kind'], string>> = { off: '放假', work: '调休上班' };
const YEARS = Array.from({ length: 8 }, (_, i) => 2025 + i);

const addDay = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/** The days as lines: a run of 放假 days of one name as one range line, each 调休 day on its own. */
function toText(days: readonly HolidayDay[]): string {
  const lines: string[] = [];
  for (let i = 0; i < days.length; ) {
    const d = days[i] as HolidayDay;
    let j = i;
    while (
      d.kind === 'off' &&
      days[j + 1]?.kind === 'off' &&
      days[j + 1]?.name === d.name &&
      days[j + 1]?.day === addDay((days[j] as HolidayDay).day)
    )
      j++;
    const to = (days[j] as HolidayDay).day;
    lines.push(`${d.day}${to === d.day ? '' : `~${to}`} ${KIND_NAMES[d.kind]} ${d.name}`);
    i = j + 1;
  }
  return lines.join('\n');
}

/** Lines "YYYY-MM-DD[~YYYY-MM-DD] 放假|上班 名称" as days, or the first line that cannot be read. */
function parse(text: string): { days: HolidayDay[] } | { error: string } {
  const days: HolidayDay[] = [];
  const lines = text
    .split('\n')
    // As people paste it from the notice: full-width digits and spaces, and －/—/／/. between the parts of a date.
    .map((l) =>
      halfWidth(l)
        .replace(/(\d)\s*[－—–/／.．]\s*(?=\d)/g, '$1-')
        .trim(),
    )
    .filter(Boolean);
  for (const [n, line] of lines.entries()) {
    const m = /^(\d{4}-\d{2}-\d{2})(?:\s*[~～至]\s*(\d{4}-\d{2}-\d{2}))?\s+(放假|上班|调休上班)\s+(\S.{0,19})$/.exec(
      line,
    );
    if (!m) return { error: `第${n + 1}行格式不正确，应为“2027-01-01~2027-01-03 放假 元旦”或“2027-01-04 上班 元旦”` };
    const [, from, to = from, kind, name] = m as unknown as [string, string, string | undefined, string, string];
    const k: HolidayDay['kind'] = kind === '放假' ? 'off' : 'work';
    if (!isCalendarDay(from) || !isCalendarDay(to)) return { error: `第${n + 1}行：日期不存在，请核对` };
    if (k === 'work' && to !== from) return { error: `第${n + 1}行：调休上班日请逐日填写` };
    if (to < from || days.length > 200) return { error: `第${n + 1}行：日期范围不正确` };
    for (let d = from; d <= to; d = addDay(d)) days.push({ day: d, kind: k, name: name.trim() });
  }
  return { days };
}

/** 节假日安排: the operator enters a year's arrangement (国务院办公厅通知) and sees the filing deadlines it gives. */
export function HolidayTab() {
  const [year, setYear] = useState(new Date().getFullYear() + 1);
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();
  const key = ['platform-holidays', year];
  const q = useQuery({ queryKey: key, queryFn: () => call(listHolidaysCall, { year }) });
  useEffect(() => setText(toText(q.data?.days ?? [])), [q.data]);
  const parsed = parse(text);
  const save = async () => {
    if ('error' in parsed) return;
    setSaving(true);
    try {
      const r = await call(saveHolidaysCall, { year, days: parsed.days });
      if (r) toast('success', `已保存${year}年节假日安排（${r.count}天）`);
      await qc.invalidateQueries({ queryKey: key });
    } finally {
      setSaving(false);
    }
  };
  const deadlines = Object.entries(q.data?.deadlines ?? {}).map(([month, day]) => ({ month, day }));
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert
        type="info"
        showIcon
        title="按国务院办公厅每年发布的节假日安排通知录入：放假日期（含其中的周末）及调休上班日。未录入的年度，申报期限仅顺延周末；已发布的征期表（如2026年）优先。"
      />
      <Space>
        年度
        <Select
          value={year}
          onChange={setYear}
          options={YEARS.map((y) => ({ value: y, label: `${y}年` }))}
          style={{ width: 110 }}
        />
      </Space>
      <Input.TextArea
        rows={10}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={'2027-01-01~2027-01-03 放假 元旦\n2027-01-04 上班 元旦'}
        aria-label="节假日安排"
      />
      {'error' in parsed ? <Alert type="error" showIcon title={parsed.error} /> : null}
      <Button type="primary" loading={saving} disabled={'error' in parsed} onClick={save}>
        保存
      </Button>
      <Table
        size="small"
        rowKey="month"
        pagination={false}
        loading={q.isLoading}
        dataSource={deadlines}
        columns={[
          { key: 'month', title: '申报月份', dataIndex: 'month' },
          { key: 'day', title: '申报期限', dataIndex: 'day' },
          {
            key: 'moved',
            title: '说明',
            render: (_: unknown, r: { month: string; day: string }) =>
              r.day === `${r.month}-15` ? null : <Tag color="orange">顺延</Tag>,
          },
        ]}
      />
    </Space>
  );
}
