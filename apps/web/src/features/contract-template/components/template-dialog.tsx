import { DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import {
  checkContractAmount,
  fenToYuan,
  jobTypeColor,
  jobTypeOf,
  type ServiceItem,
  selectTemplateByIdCall,
  TEMPLATE_DESC_MAX,
  TEMPLATE_LINES_MAX,
  TEMPLATE_MSG,
  TEMPLATE_NAME_MAX,
  templateSaveCall,
  yuanToFen,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Select, Spin, Switch, Table, type TableProps, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { act } from '../../customer/api';
import { TEMPLATE_KEYS, useServiceItems } from '../api';

/** Dialog type as the spec names it: 1 add, 2 edit. */
export type DialogState = { type: 1 } | { type: 2; id: number } | null;

interface LineState {
  key: string;
  service?: number;
  isGive: 0 | 1;
  price: string;
  discount: string;
  /** The user has left one of the amounts: its message shows from now on. */
  touched: boolean;
}

let seq = 0;
const newLine = (): LineState => ({ key: `l${++seq}`, isGive: 0, price: '', discount: '', touched: false });

const amountOk = (v: string) => checkContractAmount(v) === null;
const nowPriceOf = (l: LineState) =>
  amountOk(l.price) && amountOk(l.discount) ? fenToYuan(yuanToFen(l.price) - yuanToFen(l.discount)) : '';

function lineErrors(l: LineState) {
  return {
    service: l.service === undefined ? TEMPLATE_MSG.serviceRequired : null,
    price: checkContractAmount(l.price),
    discount: checkContractAmount(l.discount),
  };
}

interface FormValues {
  tempName: string;
  tempIllustration: string;
}

/** 新增/编辑合同模板 (866 px): name, description and the service lines, reordered by dragging. */
export function TemplateDialog({
  state,
  onClose,
  onSaved,
}: {
  state: DialogState;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const [lines, setLines] = useState<LineState[]>([newLine()]);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const dragFrom = useRef<number | null>(null);
  const [dragOver, setDragOver] = useState<number | null>(null);
  const services = useServiceItems(true);
  const editId = state?.type === 2 ? state.id : null;
  const detail = useQuery({
    queryKey: TEMPLATE_KEYS.detail(editId ?? 0),
    queryFn: () => call(selectTemplateByIdCall, { id: editId as number }),
    enabled: editId !== null,
    gcTime: 0,
  });

  // Fill the form when the dialog opens (edit: once the template is loaded).
  useEffect(() => {
    if (state === null) return;
    setSubmitted(false);
    if (state.type === 1) {
      form.setFieldsValue({ tempName: '', tempIllustration: '' });
      setLines([newLine()]);
      return;
    }
    const d = detail.data;
    if (!d) return;
    form.setFieldsValue({ tempName: d.tempName, tempIllustration: d.tempIllustration });
    setLines(
      d.tempDetailList.map((l) => ({
        key: `l${++seq}`,
        service: l.service,
        isGive: l.isGive,
        price: l.price,
        discount: l.discount,
        touched: false,
      })),
    );
  }, [state, detail.data, form]);

  // A disabled service still on an edited template stays choosable on its own line.
  const options = useMemo(() => {
    const list: Pick<ServiceItem, 'id' | 'serviceName' | 'jobType' | 'price'>[] = [...(services.data?.list ?? [])];
    for (const l of detail.data?.tempDetailList ?? []) {
      if (!list.some((s) => s.id === l.service)) {
        list.push({ id: l.service, serviceName: l.serviceName, jobType: l.jobType, price: l.price });
      }
    }
    return list;
  }, [services.data, detail.data]);
  const serviceById = (id: number | undefined) => options.find((s) => s.id === id);

  const update = (i: number, patch: Partial<LineState>) =>
    setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));

  const chooseService = (i: number, id: number | undefined) => {
    if (id !== undefined && lines.some((l, j) => j !== i && l.service === id)) {
      toast('warning', TEMPLATE_MSG.serviceDuplicate);
      update(i, { service: undefined });
      return;
    }
    const svc = serviceById(id);
    // Choosing a service resets the discount and takes the item's unit price.
    update(i, { service: id, price: svc?.price ?? '', discount: '0.00' });
  };

  /** A discount above the unit price is reset to 0.00 (checked when an amount is left). */
  const settle = (i: number) =>
    setLines((ls) =>
      ls.map((l, j) => {
        if (j !== i) return l;
        const bigger = amountOk(l.price) && amountOk(l.discount) && yuanToFen(l.discount) > yuanToFen(l.price);
        return { ...l, touched: true, discount: bigger ? '0.00' : l.discount };
      }),
    );

  const move = (from: number, to: number) =>
    setLines((ls) => {
      const next = [...ls];
      const [item] = next.splice(from, 1);
      if (item) next.splice(to, 0, item);
      return next;
    });

  const totalFen = lines.reduce(
    (sum, l) => (amountOk(l.price) && amountOk(l.discount) ? sum + yuanToFen(l.price) - yuanToFen(l.discount) : sum),
    0,
  );

  const submit = async () => {
    setSubmitted(true);
    let values: FormValues;
    try {
      values = await form.validateFields();
    } catch {
      toast('warning', TEMPLATE_MSG.incomplete);
      return;
    }
    const bad = lines.some((l) => Object.values(lineErrors(l)).some(Boolean));
    if (bad) {
      toast('warning', TEMPLATE_MSG.incomplete);
      return;
    }
    setSaving(true);
    const r = await act(
      templateSaveCall,
      {
        ...(editId !== null ? { id: editId } : {}),
        tempName: values.tempName.trim(),
        tempIllustration: (values.tempIllustration ?? '').trim(),
        tempDetailList: lines.map((l) => ({
          service: l.service as number,
          isGive: l.isGive,
          price: l.price,
          discount: l.discount,
          nowPrice: nowPriceOf(l),
        })),
        tempTotalPrice: fenToYuan(totalFen),
      },
      TEMPLATE_MSG.saved,
    );
    setSaving(false);
    if (r.ok) {
      onSaved();
      onClose();
    }
  };

  const err = (l: LineState, which: 'service' | 'price' | 'discount') => {
    const e = lineErrors(l)[which];
    const show = submitted || (which !== 'service' && l.touched);
    return show && e ? <div className="dzy-tpl-line-error">{e}</div> : null;
  };

  const columns: TableProps<LineState>['columns'] = [
    {
      key: 'drag',
      width: 36,
      className: 'dzy-tpl-cell-text',
      render: (_v, _l, i) => (
        <button
          type="button"
          className="dzy-tpl-drag"
          draggable
          aria-label={`第${i + 1}行，拖动或按上下方向键调整顺序`}
          title="拖动调整顺序"
          onKeyDown={(e) => {
            // The keyboard way to reorder: arrow up / down.
            if (e.key === 'ArrowUp' && i > 0) move(i, i - 1);
            else if (e.key === 'ArrowDown' && i < lines.length - 1) move(i, i + 1);
            else return;
            e.preventDefault();
          }}
          data-testid={`drag-${i}`}
          onDragStart={(e) => {
            dragFrom.current = i;
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(i));
          }}
          onDragEnd={() => {
            dragFrom.current = null;
            setDragOver(null);
          }}
        >
          <HolderOutlined />
        </button>
      ),
    },
    {
      key: 'no',
      title: '序号',
      width: 52,
      align: 'center',
      className: 'dzy-tpl-cell-text',
      render: (_v, _l, i) => i + 1,
    },
    {
      key: 'service',
      title: <span className="dzy-required">服务项目</span>,
      width: 200,
      render: (_v, l, i) => (
        <>
          <Select<number | null>
            // null, not undefined: an undefined value would leave the select uncontrolled and keep a refused choice.
            value={l.service ?? null}
            placeholder="请选择服务项目"
            showSearch={{ optionFilterProp: 'title' }}
            allowClear
            style={{ width: '100%' }}
            status={submitted && l.service === undefined ? 'error' : undefined}
            onChange={(v) => chooseService(i, v ?? undefined)}
            options={options.map((s) => ({
              value: s.id,
              title: s.serviceName,
              label: (
                <span className="dzy-tpl-option">
                  <Tag color={jobTypeColor(s.jobType)}>{jobTypeOf(s.jobType)?.label ?? '其他'}</Tag>
                  {s.serviceName}
                </span>
              ),
            }))}
          />
          {err(l, 'service')}
        </>
      ),
    },
    {
      key: 'isGive',
      title: '是否赠送',
      width: 80,
      align: 'center',
      className: 'dzy-tpl-cell-text',
      render: (_v, l, i) => (
        <Switch
          size="small"
          checked={l.isGive === 1}
          checkedChildren="是"
          unCheckedChildren="否"
          // Changing the flag resets the discount: now price is the unit price again.
          onChange={(on) => update(i, { isGive: on ? 1 : 0, discount: '0.00' })}
        />
      ),
    },
    {
      key: 'price',
      title: <span className="dzy-required">单价（元）</span>,
      width: 128,
      render: (_v, l, i) => (
        <>
          <Input
            value={l.price}
            placeholder="0.00"
            inputMode="decimal"
            status={(submitted || l.touched) && checkContractAmount(l.price) ? 'error' : undefined}
            onChange={(e) => update(i, { price: e.target.value.trim() })}
            onBlur={() => settle(i)}
          />
          {err(l, 'price')}
        </>
      ),
    },
    {
      key: 'discount',
      title: <span className="dzy-required">优惠（元）</span>,
      width: 128,
      render: (_v, l, i) => (
        <>
          <Input
            value={l.discount}
            placeholder="0.00"
            inputMode="decimal"
            status={(submitted || l.touched) && checkContractAmount(l.discount) ? 'error' : undefined}
            onChange={(e) => update(i, { discount: e.target.value.trim() })}
            onBlur={() => settle(i)}
          />
          {err(l, 'discount')}
        </>
      ),
    },
    {
      key: 'nowPrice',
      title: '优惠后金额',
      align: 'right',
      className: 'dzy-tpl-cell-text',
      render: (_v, l) => <span className="dzy-tpl-money">{nowPriceOf(l) || '—'}</span>,
    },
    {
      key: 'op',
      title: '操作',
      width: 60,
      align: 'center',
      className: 'dzy-tpl-cell-text',
      render: (_v, _l, i) =>
        // At least one line remains: deleting is offered only when there are more.
        lines.length > 1 ? (
          <Button
            type="link"
            danger
            size="small"
            icon={<DeleteOutlined />}
            aria-label="删除此行"
            onClick={() => setLines((ls) => ls.filter((_x, j) => j !== i))}
          />
        ) : null,
    },
  ];

  const loading = editId !== null && detail.isPending;
  return (
    <Modal
      open={state !== null}
      title={state?.type === 2 ? '编辑合同模板' : '新增合同模板'}
      width={866}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ disabled: loading }}
      onOk={submit}
    >
      <Spin spinning={loading}>
        <Form<FormValues> form={form} layout="horizontal" labelCol={{ flex: '88px' }} className="dzy-tpl-form">
          <Form.Item
            name="tempName"
            label="模板名称"
            required
            rules={[
              { required: true, whitespace: true, message: TEMPLATE_MSG.nameRequired },
              { max: TEMPLATE_NAME_MAX, message: TEMPLATE_MSG.nameTooLong },
            ]}
          >
            <Input
              placeholder="请输入模板名称"
              showCount={{ formatter: ({ count }) => `${count}/${TEMPLATE_NAME_MAX}` }}
            />
          </Form.Item>
          <Form.Item
            name="tempIllustration"
            label="模板说明"
            rules={[{ max: TEMPLATE_DESC_MAX, message: TEMPLATE_MSG.descTooLong }]}
          >
            <Input.TextArea
              placeholder="选填，例如适用的客户类型"
              autoSize={{ minRows: 2, maxRows: 3 }}
              showCount={{ formatter: ({ count }) => `${count}/${TEMPLATE_DESC_MAX}` }}
            />
          </Form.Item>
        </Form>
        <div className="dzy-tpl-lines-head">
          <Typography.Text strong>服务项目</Typography.Text>
          <Typography.Text type="secondary">拖动行首图标可调整顺序</Typography.Text>
        </div>
        <Table<LineState>
          rowKey="key"
          size="small"
          pagination={false}
          columns={columns}
          dataSource={lines}
          className="dzy-tpl-lines"
          rowClassName={(_l, i) => (dragOver === i ? 'dzy-tpl-drop' : '')}
          onRow={(_l, i) => ({
            onDragOver: (e) => {
              if (dragFrom.current === null) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
              if (dragOver !== i) setDragOver(i ?? null);
            },
            onDrop: (e) => {
              e.preventDefault();
              const from = dragFrom.current;
              dragFrom.current = null;
              setDragOver(null);
              if (from !== null && i !== undefined && from !== i) move(from, i);
            },
          })}
        />
        <div className="dzy-tpl-lines-foot">
          <Button
            icon={<PlusOutlined />}
            type="dashed"
            disabled={lines.length >= TEMPLATE_LINES_MAX}
            onClick={() => setLines((ls) => [...ls, newLine()])}
          >
            添加服务项目
          </Button>
          <span className="dzy-tpl-total">
            合同总价：<strong data-testid="tpl-total">¥{fenToYuan(totalFen)}</strong>
          </span>
        </div>
        {options.length === 0 && !services.isPending && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            message="还没有启用的服务项目，请先到“服务项目”页面添加。"
          />
        )}
      </Spin>
    </Modal>
  );
}
