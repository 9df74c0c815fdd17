import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { SBSJ_MSG, STAMP_KIND_NAMES } from '@dzy/shared';
import { Button, Checkbox, Form, type FormInstance, Input, InputNumber, Select, Space, Table } from 'antd';
import type { Rule } from 'antd/es/form';

/**
 * The figures of one return as the bureau's sbtj wants them (docs/tax-bureau-protocol.md, "sbtj"), one
 * form per tax type; money as two-decimal yuan text. The server validates again (updateSbqcItem).
 */
export type Sbsj = Record<string, unknown>;

/** The server's rules (filing-batch.ts sbsj schemas): up to 13 integer digits, 2 decimals. */
export const MONEY_RE = /^\d{1,13}(\.\d{1,2})?$/;
const SIGNED_MONEY_RE = /^-?\d{1,13}(\.\d{1,2})?$/;

/** The form's own messages (the figures' messages are the contract's SBSJ_MSG). */
export const FORM_MSG = {
  htlx: '请选择合同类型',
  htDup: '同一合同类型只能填写一行',
} as const;

const moneyRule = (required = true, signed = false, label = '金额'): Rule[] => [
  ...(required ? [{ required: true, whitespace: true, message: SBSJ_MSG.required(label) }] : []),
  {
    validator: (_: unknown, v: unknown) =>
      v === undefined || v === null || v === '' || (signed ? SIGNED_MONEY_RE : MONEY_RE).test(String(v).trim())
        ? Promise.resolve()
        : Promise.reject(new Error(signed ? SBSJ_MSG.money : SBSJ_MSG.moneyNonNegative)),
  },
];

const fen = (v: unknown) => Math.round(Number(String(v ?? '0').trim() || '0') * 100);

/** 印花税 税目 (protocol: htlx): every 税目 of the 印花税法's table, from the shared contract. */
export const HTLX_NAMES: Readonly<Record<string, string>> = STAMP_KIND_NAMES;

function Money({
  name,
  label,
  required = true,
  signed = false,
  extra,
}: {
  name: string | (string | number)[];
  label?: string;
  required?: boolean;
  signed?: boolean;
  extra?: string;
}) {
  return (
    <Form.Item
      name={name}
      label={label}
      rules={moneyRule(required, signed, label?.replace(/（.*）$/, ''))}
      extra={extra}
    >
      <Input addonAfter="元" placeholder="0.00" inputMode="decimal" maxLength={16} />
    </Form.Item>
  );
}

/** Which form a return takes: zzs splits into the small-scale and the general taxpayer's. */
export type FormKind = 'grsds' | 'zzsXgm' | 'zzsYbnsr' | 'qysds' | 'cwbb' | 'yhs' | 'given';

export function formKindOf(taxType: string, sbsj: Sbsj | null | undefined, nsrlx?: string): FormKind {
  switch (taxType) {
    case 'grsds':
      return 'grsds';
    case 'zzs':
      if (nsrlx === '0') return 'zzsYbnsr';
      if (nsrlx === '1') return 'zzsXgm';
      return sbsj && ('xse13' in sbsj || 'jxse' in sbsj) ? 'zzsYbnsr' : 'zzsXgm';
    case 'qysds':
      return 'qysds';
    case 'cwbb':
      return 'cwbb';
    case 'yhs':
      return 'yhs';
    default:
      return 'given';
  }
}

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/** The form's values from the item's sbsj (missing fields empty). */
export function formValuesOf(kind: FormKind, sbsj: Sbsj | null | undefined): Record<string, unknown> {
  const s = sbsj ?? {};
  const pick = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, str(s[k])]));
  switch (kind) {
    case 'zzsXgm':
      return pick('ppxse', 'zpxse', 'ppxse3', 'zpxse3', 'ppxse5', 'zpxse5');
    case 'zzsYbnsr':
      return { ...pick('xse13', 'xse9', 'xse6', 'jxse'), xwqy: Boolean(s.xwqy) };
    case 'qysds':
      return {
        ...pick('yysr', 'yycb', 'lrze', 'bzssr', 'mssr', 'jszjtje', 'sdjm', 'mbyqndks', 'zcze'),
        cyrs: s.cyrs === undefined ? undefined : Number(s.cyrs),
      };
    case 'cwbb':
      return pick('zcze', 'fzze', 'syzqy', 'yysr', 'jlr');
    case 'yhs':
      return {
        ht: Array.isArray(s.ht)
          ? (s.ht as { htlx: string; je: unknown }[]).map((h) => ({ htlx: h.htlx, je: str(h.je) }))
          : [],
        xwqy: Boolean(s.xwqy),
      };
    case 'grsds':
      return {
        ry: Array.isArray(s.ry)
          ? (s.ry as Record<string, unknown>[]).map((r) => ({
              zjhm: str(r.zjhm),
              xm: str(r.xm),
              sre: str(r.sre),
              sxyj: str(r.sxyj),
              zxfjkc: str(r.zxfjkc),
              qtkc: str(r.qtkc),
            }))
          : [],
      };
    default:
      return pick('srze', 'ybtse');
  }
}

const trimMoney = (v: unknown) => {
  const t = String(v ?? '').trim();
  return t === '' ? undefined : t;
};

/** The sbsj sent to updateSbqcItem from the form's values (empty optional fields left out). */
export function sbsjOf(kind: FormKind, values: Record<string, unknown>): Sbsj {
  const out: Sbsj = {};
  for (const [k, v] of Object.entries(values)) {
    if (k === 'ht' || k === 'ry' || k === 'xwqy' || k === 'cyrs') continue;
    const t = trimMoney(v);
    if (t !== undefined) out[k] = t;
  }
  if (kind === 'zzsYbnsr' || kind === 'yhs') out.xwqy = Boolean(values.xwqy);
  if (kind === 'qysds' && values.cyrs !== undefined && values.cyrs !== null) out.cyrs = Number(values.cyrs);
  if (kind === 'yhs')
    out.ht = ((values.ht as { htlx: string; je: unknown }[] | undefined) ?? []).map((h) => ({
      htlx: h.htlx,
      je: trimMoney(h.je) ?? '0.00',
    }));
  if (kind === 'grsds')
    out.ry = ((values.ry as Record<string, unknown>[] | undefined) ?? []).map((r) => {
      const row: Record<string, unknown> = { zjhm: r.zjhm, sre: trimMoney(r.sre) ?? '0.00' };
      for (const k of ['sxyj', 'zxfjkc', 'qtkc']) {
        const t = trimMoney(r[k]);
        if (t !== undefined) row[k] = t;
      }
      return row;
    });
  return out;
}

/** The form of one return's figures (inside the drawer). */
export function ItemForm({ kind, form }: { kind: FormKind; form: FormInstance }) {
  switch (kind) {
    case 'zzsXgm':
      return (
        <>
          <Money name="ppxse" label="销售额（1%征收率，普票及未开票）" />
          <Money name="zpxse" label="销售额（1%征收率，专票）" />
          <Money name="ppxse3" label="销售额（3%征收率，普票及未开票）" required={false} />
          <Money
            name="zpxse3"
            label="销售额（3%征收率，专票）"
            required={false}
            extra="放弃减税开具的3%专用发票，按3%申报"
          />
          <Money name="ppxse5" label="销售额（5%征收率，普票及未开票）" required={false} />
          <Money name="zpxse5" label="销售额（5%征收率，专票）" required={false} />
        </>
      );
    case 'zzsYbnsr':
      return (
        <>
          <Money name="xse13" label="销售额（13%税率）" />
          <Money name="xse9" label="销售额（9%税率）" required={false} />
          <Money name="xse6" label="销售额（6%税率）" required={false} />
          <Money name="jxse" label="进项税额" extra="本期认证抵扣的进项税额，需手工录入" />
          <Form.Item name="xwqy" valuePropName="checked">
            <Checkbox>小型微利企业（附加税费减半）</Checkbox>
          </Form.Item>
        </>
      );
    case 'qysds':
      return (
        <>
          <Money name="yysr" label="营业收入（本年累计）" />
          <Money name="yycb" label="营业成本（本年累计）" />
          {/* A200000: each line as on the 利润表 — 利润总额 is not 营业收入 − 营业成本 (国家税务总局公告2021年第3号). */}
          <Form.Item name="lrze" label="利润总额（本年累计）" rules={moneyRule(true, true, '利润总额')}>
            <Input addonAfter="元" placeholder="0.00" inputMode="decimal" maxLength={16} />
          </Form.Item>
          <Money name="bzssr" label="减：不征税收入" required={false} />
          <Money name="mssr" label="减：免税收入、减计收入、加计扣除" required={false} />
          <Money name="jszjtje" label="减：资产加速折旧、摊销（扣除）调减额" required={false} />
          <Money name="sdjm" label="减：所得减免" required={false} />
          <Money
            name="mbyqndks"
            label="减：弥补以前年度亏损"
            required={false}
            extra="以前5个年度尚未弥补的亏损，不超过扣除上述项目后的利润"
          />
          <Form.Item
            name="cyrs"
            label="从业人数"
            rules={[{ type: 'integer', min: 0, max: 99999, message: SBSJ_MSG.staff }]}
          >
            <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} placeholder="默认为员工人数" />
          </Form.Item>
          <Money name="zcze" label="资产总额" required={false} extra="不填默认 5,000,000.00 元" />
        </>
      );
    case 'cwbb':
      return (
        <>
          <Money name="zcze" label="资产总计" />
          <Money name="fzze" label="负债合计" />
          <Form.Item
            name="syzqy"
            label="所有者权益合计"
            dependencies={['zcze', 'fzze']}
            rules={[
              ...moneyRule(true, true, '所有者权益合计'),
              ({ getFieldValue }) => ({
                validator: (_, v) => {
                  const a = getFieldValue('zcze');
                  const b = getFieldValue('fzze');
                  if (
                    !SIGNED_MONEY_RE.test(String(v ?? '')) ||
                    !MONEY_RE.test(String(a ?? '')) ||
                    !MONEY_RE.test(String(b ?? ''))
                  )
                    return Promise.resolve();
                  return fen(a) === fen(b) + fen(v) ? Promise.resolve() : Promise.reject(new Error(SBSJ_MSG.balance));
                },
              }),
            ]}
          >
            <Input addonAfter="元" placeholder="0.00" inputMode="decimal" maxLength={16} />
          </Form.Item>
          <Money name="yysr" label="营业收入" />
          <Money name="jlr" label="净利润" signed />
        </>
      );
    case 'yhs':
      return (
        <>
          <Form.List name="ht">
            {(fields, { add, remove }) => (
              <>
                {fields.map((f) => (
                  <Space key={f.key} align="start" style={{ display: 'flex' }}>
                    <Form.Item
                      name={[f.name, 'htlx']}
                      rules={[
                        { required: true, message: FORM_MSG.htlx },
                        {
                          validator: (_, v) => {
                            const all = ((form.getFieldValue('ht') as { htlx?: string }[] | undefined) ?? []).filter(
                              (h) => h?.htlx === v,
                            );
                            return v && all.length > 1 ? Promise.reject(new Error(FORM_MSG.htDup)) : Promise.resolve();
                          },
                        },
                      ]}
                      style={{ width: 180 }}
                    >
                      <Select
                        placeholder="合同类型"
                        options={Object.entries(HTLX_NAMES).map(([value, label]) => ({ value, label }))}
                      />
                    </Form.Item>
                    <Form.Item name={[f.name, 'je']} rules={moneyRule(true, false, '计税金额')} style={{ width: 210 }}>
                      <Input addonAfter="元" placeholder="计税金额" inputMode="decimal" maxLength={16} />
                    </Form.Item>
                    <Button
                      type="text"
                      icon={<MinusCircleOutlined />}
                      onClick={() => remove(f.name)}
                      aria-label="删除"
                    />
                  </Space>
                ))}
                <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add({ htlx: undefined, je: '' })}>
                  添加合同
                </Button>
              </>
            )}
          </Form.List>
          <Form.Item name="xwqy" valuePropName="checked" style={{ marginTop: 12 }}>
            <Checkbox>小型微利企业（减半征收）</Checkbox>
          </Form.Item>
        </>
      );
    case 'grsds':
      return <PersonsForm />;
    default:
      return (
        <>
          <Money name="srze" label="收入总额" />
          <Money name="ybtse" label="应补(退)税额" signed />
        </>
      );
  }
}

/** 个税: the persons copied from the last filed month, their wages editable. */
function PersonsForm() {
  return (
    <Form.List name="ry">
      {(fields) => (
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          scroll={{ y: 420 }}
          dataSource={fields}
          locale={{ emptyText: '无在职人员，将按零申报' }}
          columns={[
            {
              title: '姓名',
              width: 90,
              render: (_, f) => (
                <Form.Item noStyle shouldUpdate>
                  {({ getFieldValue }) => String(getFieldValue(['ry', f.name, 'xm']) ?? '') || '—'}
                </Form.Item>
              ),
            },
            {
              title: '工资薪金',
              render: (_, f) => (
                <Form.Item name={[f.name, 'sre']} rules={moneyRule(true, false, '工资薪金')} style={{ margin: 0 }}>
                  <Input size="small" inputMode="decimal" maxLength={16} aria-label="工资薪金" />
                </Form.Item>
              ),
            },
            {
              title: '三险一金',
              render: (_, f) => (
                <Form.Item name={[f.name, 'sxyj']} rules={moneyRule(false)} style={{ margin: 0 }}>
                  <Input size="small" inputMode="decimal" maxLength={16} placeholder="默认" aria-label="三险一金" />
                </Form.Item>
              ),
            },
          ]}
        />
      )}
    </Form.List>
  );
}
