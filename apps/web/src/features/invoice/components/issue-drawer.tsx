import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  allowedRates,
  type BuyerRow,
  buyerListCall,
  computeInvoice,
  findInvoiceCodes,
  INVOICE_RATE_NAMES,
  type IssueForm,
  type IssueLine,
  invoiceCodeOf,
  issueCall,
  normalizeTaxNumber,
  OUT_KIND_NAMES,
  type OutInvoiceDetail,
  previewCall,
  taxFenToYuan,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import {
  AutoComplete,
  Button,
  Descriptions,
  Drawer,
  Input,
  Modal,
  Radio,
  Result,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ApiError, call } from '../../../lib/request';

type Line = IssueLine & { key: number };
const blankLine = (key: number): Line => ({
  key,
  ssflbm: '',
  spmc: '',
  ggxh: '',
  dw: '',
  sl: '',
  dj: '',
  je: '',
  slv: '0.13',
});

/** 开具发票: buyer (remembered or typed), lines with 税收分类编码 lookup, 含税 switch, totals and 大写, preview, issue. */
export function IssueDrawer(props: {
  open: boolean;
  aeiId: number;
  nsrlx: '0' | '1';
  /** The client's 开票方式 (billingSummary): sent with the form, so a method changed meanwhile is refused. */
  kpfs: string;
  kpfsLabel: string;
  onClose: () => void;
  onIssued: (inv: OutInvoiceDetail) => void;
}) {
  const { aeiId, nsrlx } = props;
  const [requestId, setRequestId] = useState(() => crypto.randomUUID());
  const [fplx, setFplx] = useState<'zp' | 'pp'>('pp');
  const [buyer, setBuyer] = useState({ name: '', taxNo: '', addressPhone: '', bankAccount: '', email: '' });
  const [incl, setIncl] = useState(true);
  const [lines, setLines] = useState<Line[]>([blankLine(1)]);
  const [bz, setBz] = useState('');
  const [busy, setBusy] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [issued, setIssued] = useState<OutInvoiceDetail | null>(null);
  const [buyerQ, setBuyerQ] = useState('');
  const buyers = useQuery({
    queryKey: ['invoice', 'buyers', aeiId, buyerQ],
    enabled: props.open,
    queryFn: () => call(buyerListCall, { aeiId, keyword: buyerQ, pageNum: 1, pageSize: 20 }),
  });
  const form = {
    aeiId,
    requestId,
    fplx,
    kpfs: props.kpfs as IssueForm['kpfs'],
    buyer: { ...buyer, taxNo: normalizeTaxNumber(buyer.taxNo) },
    priceInclTax: incl,
    lines: lines.map(({ key: _k, ...l }) => l),
    bz,
    remember: true,
  };
  const computed = computeInvoice(form, nsrlx);
  const lineError = (i: number) => (computed.ok ? '' : (computed.errors.find((e) => e.xh === i + 1)?.msg ?? ''));
  const setLine = (key: number, patch: Partial<Line>) =>
    setLines((ls) =>
      ls.map((l) => {
        if (l.key !== key) return l;
        const next = { ...l, ...patch };
        // quantity × price fills the amount
        if (('sl' in patch || 'dj' in patch) && Number(next.sl) > 0 && Number(next.dj) > 0) {
          next.je = (Math.round(Number(next.sl) * Number(next.dj) * 100) / 100).toFixed(2);
        }
        return next;
      }),
    );
  const reset = () => {
    setRequestId(crypto.randomUUID());
    setIssued(null);
    setLines([blankLine(1)]);
    setBuyer({ name: '', taxNo: '', addressPhone: '', bankAccount: '', email: '' });
    setBz('');
  };
  const close = () => {
    reset();
    props.onClose();
  };
  const issue = async () => {
    setBusy(true);
    try {
      const r = await call(issueCall, form, { handle: [409] });
      if (r) {
        setIssued(r.invoice);
        props.onIssued(r.invoice);
      }
    } catch (err) {
      // 409 pending: keep the request id so the retry cannot issue twice; anything else: a new one.
      if (err instanceof ApiError && err.code === 409) {
        Modal.warning({ title: '开票结果未知', content: err.message });
      } else setRequestId(crypto.randomUUID());
    } finally {
      setBusy(false);
      setPreviewing(false);
    }
  };
  const preview = async () => {
    const r = await call(previewCall, form).catch(() => null);
    if (r) setPreviewing(true);
  };

  return (
    <Drawer
      title="开具发票"
      open={props.open}
      onClose={close}
      size={1080}
      destroyOnHidden
      footer={
        issued ? (
          <Space>
            <Button onClick={reset}>继续开票</Button>
            <Button type="primary" onClick={close}>
              完成
            </Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={close}>取消</Button>
            <Button onClick={preview} disabled={!computed.ok}>
              预览
            </Button>
            <Button type="primary" loading={busy} disabled={!computed.ok} onClick={issue} data-testid="invoice-issue">
              开具
            </Button>
          </Space>
        )
      }
    >
      {issued ? (
        <Result
          status="success"
          title="开票成功"
          subTitle={
            <span data-testid="invoice-issued-no">
              发票号码：{issued.fphm}　价税合计：¥{issued.jshj}
            </span>
          }
        />
      ) : (
        <div className="dzy-inv-form">
          <div className="dzy-inv-row">
            <span className="dzy-inv-label">开票方式</span>
            <Tag color="blue" data-testid="invoice-kpfs">
              {props.kpfsLabel}
            </Tag>
            <span className="dzy-inv-label">发票类型</span>
            <Radio.Group
              value={fplx}
              onChange={(e) => setFplx(e.target.value)}
              options={(['pp', 'zp'] as const).map((k) => ({ value: k, label: `数电${OUT_KIND_NAMES[k]}` }))}
            />
            <span className="dzy-inv-label">价格含税</span>
            <Switch checked={incl} onChange={setIncl} checkedChildren="含税" unCheckedChildren="不含税" />
          </div>
          <div className="dzy-inv-section">购买方</div>
          <div className="dzy-inv-grid">
            <div className="dzy-inv-field">
              <span>名称</span>
              <AutoComplete
                style={{ width: '100%' }}
                value={buyer.name}
                placeholder="输入名称或税号，从常用购买方中选择"
                onSearch={(v) => setBuyerQ(v)}
                onChange={(v) => setBuyer((b) => ({ ...b, name: v }))}
                onSelect={(_v, o) => {
                  const b = (o as { b: BuyerRow }).b;
                  setBuyer({
                    name: b.name,
                    taxNo: b.taxNo,
                    addressPhone: b.addressPhone,
                    bankAccount: b.bankAccount,
                    email: b.email,
                  });
                }}
                options={(buyers.data?.list ?? []).map((b) => ({
                  value: b.name,
                  label: `${b.name}（${b.taxNo}）`,
                  b,
                }))}
                data-testid="invoice-buyer-name"
              />
            </div>
            <div className="dzy-inv-field">
              统一社会信用代码/纳税人识别号
              <Input
                value={buyer.taxNo}
                onChange={(e) => setBuyer((b) => ({ ...b, taxNo: e.target.value }))}
                onBlur={() => setBuyer((b) => ({ ...b, taxNo: normalizeTaxNumber(b.taxNo) }))}
                data-testid="invoice-buyer-taxno"
              />
            </div>
            <div className="dzy-inv-field">
              地址、电话
              <Input
                value={buyer.addressPhone}
                onChange={(e) => setBuyer((b) => ({ ...b, addressPhone: e.target.value }))}
              />
            </div>
            <div className="dzy-inv-field">
              开户行及账号
              <Input
                value={buyer.bankAccount}
                onChange={(e) => setBuyer((b) => ({ ...b, bankAccount: e.target.value }))}
              />
            </div>
          </div>
          <div className="dzy-inv-section">
            项目
            <Button
              size="small"
              icon={<PlusOutlined />}
              onClick={() => setLines((ls) => [...ls, blankLine(Math.max(...ls.map((l) => l.key)) + 1)])}
            >
              添加行
            </Button>
          </div>
          <Table<Line>
            size="small"
            pagination={false}
            rowKey="key"
            dataSource={lines}
            scroll={{ x: 1000 }}
            columns={[
              {
                key: 'code',
                title: '税收分类编码',
                width: 250,
                render: (_v, l) => (
                  <CodePicker
                    value={l.ssflbm}
                    onChange={(code, name) => {
                      const rates = allowedRates(code, nsrlx);
                      setLine(l.key, {
                        ssflbm: code,
                        slv: (rates.includes(l.slv as never) ? l.slv : (rates[0] ?? l.slv)) as Line['slv'],
                        ...(name && !l.spmc ? { spmc: name } : {}),
                      });
                    }}
                  />
                ),
              },
              {
                key: 'spmc',
                title: '项目名称',
                width: 150,
                render: (_v, l) => <Input value={l.spmc} onChange={(e) => setLine(l.key, { spmc: e.target.value })} />,
              },
              {
                key: 'ggxh',
                title: '规格型号',
                width: 90,
                render: (_v, l) => <Input value={l.ggxh} onChange={(e) => setLine(l.key, { ggxh: e.target.value })} />,
              },
              {
                key: 'dw',
                title: '单位',
                width: 60,
                render: (_v, l) => <Input value={l.dw} onChange={(e) => setLine(l.key, { dw: e.target.value })} />,
              },
              {
                key: 'sl',
                title: '数量',
                width: 80,
                render: (_v, l) => <Input value={l.sl} onChange={(e) => setLine(l.key, { sl: e.target.value })} />,
              },
              {
                key: 'dj',
                title: incl ? '单价（含税）' : '单价（不含税）',
                width: 100,
                render: (_v, l) => <Input value={l.dj} onChange={(e) => setLine(l.key, { dj: e.target.value })} />,
              },
              {
                key: 'je',
                title: incl ? '金额（含税）' : '金额（不含税）',
                width: 110,
                render: (_v, l) => (
                  <Input
                    value={l.je}
                    onChange={(e) => setLine(l.key, { je: e.target.value })}
                    data-testid="invoice-line-je"
                  />
                ),
              },
              {
                key: 'slv',
                title: '税率',
                width: 90,
                render: (_v, l) => {
                  const rates = l.ssflbm ? allowedRates(l.ssflbm, nsrlx) : [];
                  return (
                    <Select
                      value={rates.length ? l.slv : undefined}
                      placeholder="先选编码"
                      style={{ width: '100%' }}
                      onChange={(v) => setLine(l.key, { slv: v })}
                      options={rates
                        .filter((r) => !(fplx === 'zp' && r === 'mz'))
                        .map((r) => ({ value: r, label: INVOICE_RATE_NAMES[r] }))}
                    />
                  );
                },
              },
              {
                key: 'op',
                title: '',
                width: 40,
                render: (_v, l, i) => (
                  <Space size={2}>
                    {lineError(i) && l.ssflbm ? (
                      <Typography.Text type="danger" title={lineError(i)}>
                        !
                      </Typography.Text>
                    ) : null}
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label="删除行"
                      disabled={lines.length === 1}
                      onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
                    />
                  </Space>
                ),
              },
            ]}
          />
          {!computed.ok && computed.errors[0] && lines.some((l) => l.ssflbm || l.je) ? (
            <Typography.Text type="danger" className="dzy-inv-error">
              第{computed.errors[0].xh}行：{computed.errors[0].msg}
            </Typography.Text>
          ) : null}
          <div className="dzy-inv-totals" data-testid="invoice-totals">
            <span>合计金额 ¥{computed.ok ? taxFenToYuan(computed.invoice.amount) : '0.00'}</span>
            <span>合计税额 ¥{computed.ok ? taxFenToYuan(computed.invoice.tax) : '0.00'}</span>
            <span>
              价税合计（大写）<b>{computed.ok ? computed.invoice.totalUpper : '零元整'}</b>
            </span>
            <span>
              （小写）<b>¥{computed.ok ? taxFenToYuan(computed.invoice.total) : '0.00'}</b>
            </span>
          </div>
          <div className="dzy-inv-remark">
            备注
            <Input.TextArea rows={2} maxLength={200} value={bz} onChange={(e) => setBz(e.target.value)} />
          </div>
        </div>
      )}
      <Modal
        title="开票预览"
        open={previewing}
        width={820}
        onCancel={() => setPreviewing(false)}
        okText="确认开具"
        cancelText="返回修改"
        confirmLoading={busy}
        onOk={issue}
      >
        {computed.ok ? (
          <>
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label="开票方式">{props.kpfsLabel}</Descriptions.Item>
              <Descriptions.Item label="发票类型">数电{OUT_KIND_NAMES[fplx]}</Descriptions.Item>
              <Descriptions.Item label="购买方">
                {buyer.name}（{normalizeTaxNumber(buyer.taxNo)}）
              </Descriptions.Item>
            </Descriptions>
            <Table
              size="small"
              pagination={false}
              rowKey="xh"
              style={{ marginTop: 12 }}
              dataSource={computed.invoice.lines}
              columns={[
                { title: '项目名称', dataIndex: 'spmc' },
                { title: '数量', dataIndex: 'sl', width: 70 },
                { title: '单价', dataIndex: 'dj', width: 90 },
                { title: '金额', key: 'a', width: 100, render: (_v, l) => taxFenToYuan(l.amount) },
                { title: '税率', key: 'r', width: 70, render: (_v, l) => INVOICE_RATE_NAMES[l.rate as never] },
                { title: '税额', key: 't', width: 90, render: (_v, l) => taxFenToYuan(l.tax) },
              ]}
            />
            <p className="dzy-inv-preview-total">
              价税合计（大写）{computed.invoice.totalUpper}　（小写）¥{taxFenToYuan(computed.invoice.total)}
            </p>
          </>
        ) : null}
      </Modal>
    </Drawer>
  );
}

/** 税收分类编码 lookup by code or name (the shared table). */
function CodePicker({ value, onChange }: { value: string; onChange: (code: string, name: string) => void }) {
  const [q, setQ] = useState('');
  const found = findInvoiceCodes(q, 30);
  const current = invoiceCodeOf(value);
  const opts = current && !found.includes(current) ? [current, ...found] : found;
  return (
    <Select
      showSearch
      value={value || undefined}
      placeholder="输入编码或名称搜索"
      filterOption={false}
      onSearch={setQ}
      style={{ width: '100%' }}
      popupMatchSelectWidth={360}
      onChange={(v: string) => onChange(v, invoiceCodeOf(v)?.name ?? '')}
      options={opts.map((c) => ({ value: c.code, label: `*${c.short}*${c.name} ${c.code}` }))}
      data-testid="invoice-code"
    />
  );
}
