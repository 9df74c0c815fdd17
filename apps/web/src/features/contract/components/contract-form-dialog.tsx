import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  AMOUNT_RE,
  CODE,
  CONTRACT_MSG,
  type ContractDetail,
  contractEnterprisesCall,
  contractInfoCall,
  contractOwnersCall,
  createContractNoCall,
  fenToYuan,
  jobTypeColor,
  PAY_CYCLES,
  renewContractCall,
  saveContractCall,
  selectTemplateByIdCall,
  selectTemplateListCall,
  serviceItemListCall,
  yuanToFen,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  Modal,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';

export type FormMode = { kind: 'add' } | { kind: 'edit'; id: number } | { kind: 'renew'; id: number };

interface LineValue {
  serviceId?: number;
  isGive: 0 | 1;
  price: string;
  discount: string;
}

interface FormValues {
  contractNo: string;
  aeiId?: number;
  templateId?: number | null;
  contractUserId?: number;
  signDate: Dayjs;
  period: [Dayjs, Dayjs];
  payCycle: number;
  discount: string;
  remark: string;
  lines: LineValue[];
}

const D = 'YYYY-MM-DD';
const amountRules = (label: string) => [
  { required: true, message: `请输入${label}` },
  { max: 10, message: '合同金额长度不能超过10位' },
  { pattern: AMOUNT_RE, message: '请输入正确的合同金额' },
];
const fen = (v: string | undefined) => (v && AMOUNT_RE.test(v) ? yuanToFen(v) : 0);

/** Create, edit (drafts) and renew a contract: 866 px wide (business.md §9), lines from a template. */
export function ContractFormDialog({
  mode,
  onClose,
  onDone,
}: {
  mode: FormMode | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [keyword, setKeyword] = useState('');
  const open = mode !== null;
  const source = mode && mode.kind !== 'add' ? mode.id : null;

  const enterprises = useQuery({
    queryKey: ['contract', 'enterprises', keyword],
    queryFn: async () => {
      try {
        return {
          list: (await call(contractEnterprisesCall, keyword ? { keyword } : {}, { handle: [CODE.EMPTY] })) ?? [],
          msg: '',
        };
      } catch (err) {
        if (err instanceof ApiError && err.code === CODE.EMPTY) return { list: [], msg: err.message };
        throw err;
      }
    },
    enabled: open && mode?.kind !== 'renew',
  });
  const templates = useQuery({
    queryKey: ['contract', 'templates'],
    queryFn: () => call(selectTemplateListCall, {}),
    enabled: open && mode?.kind === 'add',
  });
  const services = useQuery({
    queryKey: ['contract', 'services'],
    queryFn: () => call(serviceItemListCall, { service_static: '1' }),
    enabled: open,
  });
  const owners = useQuery({
    queryKey: ['contract', 'owners'],
    queryFn: () => call(contractOwnersCall, {}),
    enabled: open,
  });
  const base = useQuery({
    queryKey: ['contract', 'detail', source],
    queryFn: () => call(contractInfoCall, { id: source as number }),
    enabled: open && source !== null,
  });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (mode.kind === 'add') {
      const today = dayjs();
      form.setFieldsValue({
        signDate: today,
        period: [today, today.add(1, 'year').subtract(1, 'day')],
        payCycle: 12,
        discount: '0.00',
        remark: '',
        lines: [{ isGive: 0, price: '', discount: '0.00' }],
      });
      void call(createContractNoCall, {}).then((r) => r && form.setFieldValue('contractNo', r.contractNo));
    }
  }, [open, mode, form]);

  useEffect(() => {
    const d: ContractDetail | null | undefined = base.data;
    if (!open || !d || mode?.kind === 'add') return;
    const lines = d.lines.map((l) => ({
      serviceId: l.serviceId ?? undefined,
      isGive: (l.isGive === 1 ? 1 : 0) as 0 | 1,
      price: l.price,
      discount: l.discount,
    }));
    if (mode?.kind === 'edit') {
      form.setFieldsValue({
        contractNo: d.contractNo,
        aeiId: d.aeiId,
        templateId: d.templateId,
        contractUserId: d.contractUserId,
        signDate: dayjs(d.signDate),
        period: [dayjs(d.startDate), dayjs(d.endDate)],
        payCycle: d.payCycle,
        discount: d.discount,
        remark: d.remark,
        lines,
      });
    } else {
      // A renewal starts the day after the old term and runs as long as it did.
      const start = dayjs(d.endDate).add(1, 'day');
      const months = Math.max(1, dayjs(d.endDate).add(1, 'day').diff(dayjs(d.startDate), 'month'));
      form.setFieldsValue({
        contractNo: '',
        signDate: dayjs(),
        period: [start, start.add(months, 'month').subtract(1, 'day')],
        payCycle: d.payCycle,
        discount: d.discount,
        remark: '',
        lines,
      });
      void call(createContractNoCall, {}).then((r) => r && form.setFieldValue('contractNo', r.contractNo));
    }
  }, [base.data, open, mode, form]);

  const applyTemplate = async (id: number | null | undefined) => {
    if (!id) return;
    const t = await call(selectTemplateByIdCall, { id });
    if (!t) return;
    form.setFieldValue(
      'lines',
      t.tempDetailList.map((l) => ({ serviceId: l.service, isGive: l.isGive, price: l.price, discount: l.discount })),
    );
  };

  const lines = Form.useWatch('lines', form) ?? [];
  const discount = Form.useWatch('discount', form);
  const totalFen = lines.reduce((s, l) => s + Math.max(0, fen(l?.price) - fen(l?.discount)), 0);
  const serviceOptions = useMemo(
    () =>
      (services.data?.list ?? []).map((s) => ({
        value: s.id,
        label: (
          <Space size={4}>
            <Tag color={jobTypeColor(s.jobType)} style={{ marginInlineEnd: 0 }}>
              {s.serviceBriName || s.serviceName.slice(0, 2)}
            </Tag>
            {s.serviceName}
          </Space>
        ),
        name: s.serviceName,
        price: s.price,
      })),
    [services.data],
  );

  const submit = async (submitNow: boolean) => {
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch {
      toast('warning', '请填写完整');
      return;
    }
    const body = {
      contractNo: v.contractNo || undefined,
      signDate: v.signDate.format(D),
      startDate: v.period[0].format(D),
      endDate: v.period[1].format(D),
      payCycle: v.payCycle as 0 | 1 | 3 | 6 | 12,
      discount: v.discount || '0.00',
      remark: v.remark ?? '',
      lines: v.lines.map((l) => ({
        serviceId: l.serviceId as number,
        isGive: l.isGive,
        price: l.price,
        discount: l.discount || '0.00',
      })),
    };
    setSaving(true);
    try {
      if (mode?.kind === 'renew') {
        await call(renewContractCall, { id: mode.id, ...body });
        toast('success', CONTRACT_MSG.renewed);
      } else {
        await call(saveContractCall, {
          ...body,
          ...(mode?.kind === 'edit' ? { id: mode.id } : {}),
          aeiId: v.aeiId as number,
          templateId: v.templateId ?? null,
          contractUserId: v.contractUserId,
          submit: submitNow,
        });
        toast('success', submitNow ? CONTRACT_MSG.submitted : CONTRACT_MSG.saved);
      }
      onDone();
      onClose();
    } catch {
      // The request client has shown the server's message.
    } finally {
      setSaving(false);
    }
  };

  const title = mode?.kind === 'renew' ? '续签合同' : mode?.kind === 'edit' ? '编辑合同' : '新增合同';
  const renewOf = mode?.kind === 'renew' ? base.data : null;
  return (
    <Modal
      open={open}
      title={title}
      width={866}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>取消</Button>
          {mode?.kind !== 'renew' && (
            <Button loading={saving} onClick={() => void submit(false)}>
              保存草稿
            </Button>
          )}
          <Button type="primary" loading={saving} onClick={() => void submit(true)}>
            {mode?.kind === 'renew' ? '确认续签' : '保存并提交'}
          </Button>
        </Space>
      }
    >
      {renewOf && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          message={`续签「${renewOf.qymc}」的合同 ${renewOf.contractNo}（${renewOf.startDate} 至 ${renewOf.endDate}），新合同提交后立即生效并生成应收计划。`}
        />
      )}
      <Spin spinning={source !== null && base.isPending} tip="正在读取原合同…">
        <Form form={form} layout="vertical" requiredMark className="dzy-contract-form">
          <Row gutter={16}>
            <Col span={8}>
              <Form.Item
                name="contractNo"
                label="合同编号"
                tooltip="自动生成，可修改；留空则保存时自动编号"
                rules={[{ pattern: /^[A-Za-z0-9-]*$/, message: '合同编号只能包含字母、数字和-' }]}
              >
                <Input count={{ max: 30, show: true }} placeholder="HT2026000001" />
              </Form.Item>
            </Col>
            {mode?.kind !== 'renew' && (
              <Col span={16}>
                <Form.Item
                  name="aeiId"
                  label="签约企业"
                  rules={[{ required: true, message: '请选择企业' }]}
                  help={enterprises.data?.msg || undefined}
                  validateStatus={enterprises.data?.msg ? 'warning' : undefined}
                >
                  <Select
                    showSearch
                    placeholder="输入企业名称或税号搜索"
                    filterOption={false}
                    onSearch={setKeyword}
                    loading={enterprises.isFetching}
                    notFoundContent={enterprises.data?.msg || '未找到符合权限的客户'}
                    options={(enterprises.data?.list ?? []).map((e) => ({
                      value: e.id,
                      label: `${e.qymc}（${e.qysh || '无税号'}）`,
                    }))}
                  />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Row gutter={16}>
            {mode?.kind === 'add' && (
              <Col span={8}>
                <Form.Item name="templateId" label="合同模板">
                  <Select
                    allowClear
                    placeholder="选择模板带出服务项目"
                    options={(templates.data ?? []).map((t) => ({
                      value: t.id,
                      label: `${t.tempName}（¥${t.tempTotalPrice}）`,
                    }))}
                    onChange={(id: number | undefined) => void applyTemplate(id)}
                  />
                </Form.Item>
              </Col>
            )}
            {mode?.kind !== 'renew' && (
              <Col span={8}>
                <Form.Item name="contractUserId" label="合同负责人">
                  <Select
                    allowClear
                    placeholder="不选则为本人"
                    showSearch
                    optionFilterProp="label"
                    options={(owners.data ?? []).map((u) => ({ value: u.userId, label: u.hymc }))}
                  />
                </Form.Item>
              </Col>
            )}
            <Col span={8}>
              <Form.Item name="signDate" label="签订日期" rules={[{ required: true, message: '请选择签订日期' }]}>
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item
                name="period"
                label="服务期"
                rules={[
                  { required: true, message: '请选择服务期' },
                  {
                    validator: (_r, v: [Dayjs, Dayjs] | null | undefined) => {
                      if (!v?.[0] || !v[1]) return Promise.resolve();
                      if (v[1].isBefore(v[0], 'day')) return Promise.reject(new Error(CONTRACT_MSG.endBeforeStart));
                      if (!v[1].isBefore(v[0].add(10, 'year'), 'day'))
                        return Promise.reject(new Error(CONTRACT_MSG.termTooLong));
                      return Promise.resolve();
                    },
                  },
                ]}
              >
                <DatePicker.RangePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="payCycle" label="付款周期" rules={[{ required: true, message: '请选择付款周期' }]}>
                <Select options={PAY_CYCLES.map((c) => ({ value: c.value, label: c.label }))} />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item
                name="discount"
                label="合同优惠（元）"
                dependencies={[['lines']]}
                rules={[
                  ...amountRules('合同优惠'),
                  {
                    validator: (_r, v: string | undefined) =>
                      fen(v) > totalFen ? Promise.reject(new Error(CONTRACT_MSG.discountTooHigh)) : Promise.resolve(),
                  },
                ]}
              >
                <Input />
              </Form.Item>
            </Col>
          </Row>

          <Typography.Text strong>服务项目</Typography.Text>
          <Form.List
            name="lines"
            rules={[
              {
                validator: (_r, v: LineValue[] | undefined) =>
                  v && v.length > 0 ? Promise.resolve() : Promise.reject(new Error('请至少添加一项服务')),
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <>
                <Table
                  size="small"
                  rowKey="key"
                  pagination={false}
                  style={{ marginTop: 8 }}
                  dataSource={fields}
                  columns={[
                    {
                      title: '服务项目',
                      width: 260,
                      render: (_v, f) => (
                        <Form.Item
                          name={[f.name, 'serviceId']}
                          rules={[
                            { required: true, message: '请选择服务项目' },
                            {
                              validator: (_r, v) =>
                                v && lines.filter((l) => l?.serviceId === v).length > 1
                                  ? Promise.reject(new Error(CONTRACT_MSG.serviceRepeat))
                                  : Promise.resolve(),
                            },
                          ]}
                        >
                          <Select
                            style={{ width: '100%' }}
                            placeholder="请选择"
                            options={serviceOptions}
                            onChange={(id: number) => {
                              if (lines.some((l, i) => i !== f.name && l?.serviceId === id)) {
                                toast('warning', CONTRACT_MSG.serviceRepeat);
                                form.setFieldValue(['lines', f.name, 'serviceId'], undefined);
                                return;
                              }
                              const s = serviceOptions.find((o) => o.value === id);
                              form.setFieldValue(['lines', f.name, 'price'], s?.price ?? '');
                              form.setFieldValue(['lines', f.name, 'discount'], '0.00');
                            }}
                          />
                        </Form.Item>
                      ),
                    },
                    {
                      title: '赠送',
                      width: 90,
                      render: (_v, f) => (
                        <Form.Item name={[f.name, 'isGive']}>
                          <Select
                            // business.md §9: changing the gift flag resets the discount.
                            onChange={() => form.setFieldValue(['lines', f.name, 'discount'], '0.00')}
                            options={[
                              { value: 0, label: '否' },
                              { value: 1, label: '是' },
                            ]}
                          />
                        </Form.Item>
                      ),
                    },
                    {
                      title: '单价（元）',
                      render: (_v, f) => (
                        <Form.Item name={[f.name, 'price']} rules={amountRules('合同金额')}>
                          <Input />
                        </Form.Item>
                      ),
                    },
                    {
                      title: '优惠（元）',
                      render: (_v, f) => (
                        <Form.Item name={[f.name, 'discount']} rules={amountRules('合同金额')}>
                          <Input
                            onBlur={(e) => {
                              const price = fen(lines[f.name]?.price);
                              if (fen(e.target.value) > price)
                                form.setFieldValue(['lines', f.name, 'discount'], '0.00');
                            }}
                          />
                        </Form.Item>
                      ),
                    },
                    {
                      title: '优惠后（元）',
                      width: 110,
                      align: 'right',
                      render: (_v, f) => {
                        const l = lines[f.name];
                        return (
                          <span className="dzy-contract-line-now">
                            {fenToYuan(Math.max(0, fen(l?.price) - fen(l?.discount)))}
                          </span>
                        );
                      },
                    },
                    {
                      title: '',
                      width: 44,
                      render: (_v, f) =>
                        fields.length > 1 && (
                          <Button
                            type="text"
                            danger
                            icon={<DeleteOutlined />}
                            aria-label="删除"
                            onClick={() => remove(f.name)}
                          />
                        ),
                    },
                  ]}
                />
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  style={{ marginTop: 8 }}
                  onClick={() => add({ isGive: 0, price: '', discount: '0.00' })}
                >
                  添加服务项目
                </Button>
                <Form.ErrorList errors={errors} />
              </>
            )}
          </Form.List>
          <div className="dzy-contract-total">
            合同总价 <b>¥{fenToYuan(totalFen)}</b>，优惠 ¥{fenToYuan(fen(discount))}，合同金额{' '}
            <b className="dzy-contract-amount">¥{fenToYuan(Math.max(0, totalFen - fen(discount)))}</b>
          </div>
          <Form.Item name="remark" label="备注" style={{ marginTop: 12, marginBottom: 28 }}>
            <Input.TextArea rows={2} count={{ max: 500, show: true }} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
