import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CODE,
  getOppSettingCall,
  OPP_FOLLOW_WAYS,
  OPP_MSG,
  OPP_SOURCES,
  OPP_STAGE_KINDS,
  type OppDuplicate,
  type OppDuplicateRefusal,
  type OppItem,
  type OppSetting,
  oppConvertCall,
  oppDetailCall,
  oppFollowSaveCall,
  oppOwnersCall,
  oppTransferCall,
  PAY_CYCLES,
  saveOppCall,
  saveOppSettingCall,
  selectTemplateListCall,
  serviceItemListCall,
} from '@dzy/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { ApiError, call } from '../../../lib/request';

export const OPP_KEYS = { all: ['opportunity'] as const };

export function useOppSetting() {
  return useQuery({ queryKey: ['opportunity', 'setting'], queryFn: () => call(getOppSettingCall, {}) });
}

export function useOppOwners(enabled = true) {
  return useQuery({ queryKey: ['opportunity', 'owners'], queryFn: () => call(oppOwnersCall, {}), enabled });
}

// --- create / edit ---------------------------------------------------------------------------------

interface OppFormValues {
  companyName: string;
  contactName: string;
  phone: string;
  source: string;
  serviceIds: number[];
  expectAmount: number | null;
  stageId: number;
  remark: string;
}

/** 新增商机 / 编辑商机 (id given). */
export function OppFormDialog(props: {
  open: boolean;
  id: number | null;
  onClose: () => void;
  onDone: () => void;
  /** 查看 on the same-company warning: the page closes the form and shows that opportunity. */
  onOpenExisting?: (id: number) => void;
}) {
  const [form] = Form.useForm<OppFormValues>();
  const [saving, setSaving] = useState(false);
  // The server's warning for a company already in the pipeline (saveBusiOpp 409): continue or cancel.
  const [duplicate, setDuplicate] = useState<{ msg: string; list: OppDuplicate[] } | null>(null);
  const setting = useOppSetting();
  const services = useQuery({
    queryKey: ['opportunity', 'services'],
    queryFn: () => call(serviceItemListCall, { service_static: '1' }),
    enabled: props.open,
  });
  const detail = useQuery({
    queryKey: ['opportunity', 'detail', props.id],
    queryFn: () => call(oppDetailCall, { id: props.id ?? 0 }),
    enabled: props.open && props.id !== null,
  });
  useEffect(() => {
    if (!props.open) return;
    const d = detail.data;
    if (props.id !== null && d) {
      form.setFieldsValue({
        companyName: d.companyName,
        contactName: d.contactName,
        phone: d.phone,
        source: d.source,
        serviceIds: d.serviceIds,
        expectAmount: Number(d.expectAmount),
        stageId: d.stageId,
        remark: d.remark,
      });
    } else if (props.id === null) {
      form.resetFields();
      const first = setting.data?.stages[0];
      if (first) form.setFieldValue('stageId', first.id);
    }
  }, [props.open, props.id, detail.data, setting.data, form]);

  const submit = async (confirmDuplicate = false) => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      await call(
        saveOppCall,
        {
          ...(props.id !== null ? { id: props.id } : {}),
          companyName: v.companyName,
          contactName: v.contactName,
          phone: v.phone,
          source: v.source as (typeof OPP_SOURCES)[number],
          serviceIds: v.serviceIds ?? [],
          expectAmount: (v.expectAmount ?? 0).toFixed(2),
          stageId: v.stageId,
          remark: v.remark ?? '',
          ...(confirmDuplicate ? { confirmDuplicate: true } : {}),
        },
        { handle: [CODE.CONFLICT] },
      );
      setDuplicate(null);
      toast('success', props.id === null ? OPP_MSG.added : OPP_MSG.saved);
      props.onDone();
      props.onClose();
    } catch (err) {
      const refusal = err instanceof ApiError ? (err.data as OppDuplicateRefusal | null) : null;
      if (err instanceof ApiError && refusal?.duplicates?.length) {
        setDuplicate({ msg: err.message, list: refusal.duplicates });
      } else if (err instanceof ApiError && !err.handled) {
        toast('error', err.message);
      }
      // anything else was told by the request client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={props.open}
      title={props.id === null ? '新增商机' : '编辑商机'}
      width={720}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Modal
        open={duplicate !== null}
        title="该企业已有商机"
        width={560}
        okText="仍然新增"
        cancelText="取消"
        confirmLoading={saving}
        onOk={() => void submit(true)}
        onCancel={() => setDuplicate(null)}
        destroyOnHidden
      >
        <Typography.Paragraph>{duplicate?.msg}</Typography.Paragraph>
        <ul className="dzy-opp-dup-list" aria-label="已有的商机">
          {(duplicate?.list ?? []).map((d) => (
            <li key={d.id}>
              <div className="dzy-opp-dup-name">
                {d.canOpen && props.onOpenExisting ? (
                  <Button
                    type="link"
                    size="small"
                    className="dzy-list-name-link"
                    onClick={() => {
                      setDuplicate(null);
                      props.onOpenExisting?.(d.id);
                    }}
                  >
                    {d.companyName}
                  </Button>
                ) : (
                  <Typography.Text strong>{d.companyName}</Typography.Text>
                )}
              </div>
              <Typography.Text type="secondary" className="dzy-opp-sub">
                {d.converted ? '已转为客户' : d.stageName} · {d.inPool ? '在公海中' : `负责人 ${d.ownerName || '—'}`} ·{' '}
                {d.createdAt.slice(0, 10)} 创建
                {d.canOpen ? '' : '（不在您的数据权限内，可联系负责人）'}
              </Typography.Text>
            </li>
          ))}
        </ul>
      </Modal>
      <Form form={form} layout="vertical" requiredMark className="dzy-opp-form">
        <div className="dzy-opp-grid">
          <Form.Item name="companyName" label="公司名称" rules={[{ required: true, message: '请输入公司名称' }]}>
            <Input maxLength={100} placeholder="如：杭州某某科技有限公司" />
          </Form.Item>
          <Form.Item name="source" label="商机来源" rules={[{ required: true, message: '请选择商机来源' }]}>
            <Select placeholder="请选择" options={OPP_SOURCES.map((s) => ({ value: s, label: s }))} />
          </Form.Item>
          <Form.Item name="contactName" label="联系人" rules={[{ required: true, message: '请输入联系人' }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item
            name="phone"
            label="联系电话"
            rules={[
              { required: true, message: '请输入联系电话' },
              { pattern: /^1\d{10}$/, message: '请输入11位手机号码' },
            ]}
          >
            <Input maxLength={11} />
          </Form.Item>
          <Form.Item name="stageId" label="商机阶段" rules={[{ required: true, message: '请选择商机阶段' }]}>
            <Select options={(setting.data?.stages ?? []).map((s) => ({ value: s.id, label: s.name }))} />
          </Form.Item>
          <Form.Item name="expectAmount" label="预计金额（元）">
            <InputNumber min={0} max={99999999} precision={2} style={{ width: '100%' }} placeholder="0.00" />
          </Form.Item>
        </div>
        <Form.Item name="serviceIds" label="意向服务">
          <Select
            mode="multiple"
            allowClear
            placeholder="选择客户感兴趣的服务项目"
            optionFilterProp="label"
            options={(services.data?.list ?? []).map((s) => ({ value: s.id, label: s.serviceName }))}
          />
        </Form.Item>
        <Form.Item name="remark" label="备注">
          <Input.TextArea maxLength={500} rows={3} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// --- follow-up -------------------------------------------------------------------------------------

/** 写跟进: content, way, next follow-up time, optionally a new stage. */
export function FollowDialog(props: { opp: OppItem | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ content: string; way: string; next: Dayjs | null; stageId: number }>();
  const [saving, setSaving] = useState(false);
  const setting = useOppSetting();
  useEffect(() => {
    if (props.opp) {
      form.resetFields();
      form.setFieldsValue({ way: '电话', stageId: props.opp.stageId });
    }
  }, [props.opp, form]);
  const submit = async () => {
    if (!props.opp) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      await call(oppFollowSaveCall, {
        oppId: props.opp.id,
        content: v.content,
        way: v.way as (typeof OPP_FOLLOW_WAYS)[number],
        nextFollowAt: v.next ? v.next.format('YYYY-MM-DD HH:mm') : null,
        ...(v.stageId !== props.opp.stageId ? { stageId: v.stageId } : {}),
      });
      toast('success', OPP_MSG.followSaved);
      props.onDone();
      props.onClose();
    } catch {
      // told
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={props.opp !== null}
      title={`写跟进 · ${props.opp?.companyName ?? ''}`}
      width={560}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="content"
          label="跟进内容"
          rules={[{ required: true, whitespace: true, message: '请输入跟进内容' }]}
        >
          <Input.TextArea rows={4} maxLength={1000} showCount placeholder="沟通了什么、客户的需求和顾虑" />
        </Form.Item>
        <Space size={16} style={{ display: 'flex' }} className="dzy-opp-follow-row">
          <Form.Item name="way" label="跟进方式" rules={[{ required: true, message: '请选择跟进方式' }]}>
            <Select style={{ width: 140 }} options={OPP_FOLLOW_WAYS.map((w) => ({ value: w, label: w }))} />
          </Form.Item>
          <Form.Item name="stageId" label="商机阶段">
            <Select
              style={{ width: 140 }}
              options={(setting.data?.stages ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          </Form.Item>
          <Form.Item name="next" label="下次跟进时间">
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
              placeholder="到时提醒负责人"
            />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

// --- transfer --------------------------------------------------------------------------------------

/** 转移商机: to a colleague, with a reason (changeBusiOppFollowupBy). */
export function TransferDialog(props: { opps: OppItem[] | null; onClose: () => void; onDone: () => void }) {
  const [form] = Form.useForm<{ userId: number; reason: string }>();
  const [saving, setSaving] = useState(false);
  const owners = useOppOwners(props.opps !== null);
  const submit = async () => {
    if (!props.opps) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      await call(oppTransferCall, { ids: props.opps.map((o) => o.id), userId: v.userId, reason: v.reason ?? '' });
      toast('success', OPP_MSG.transferred);
      props.onDone();
      props.onClose();
    } catch {
      // told
    } finally {
      setSaving(false);
    }
  };
  const what =
    props.opps?.length === 1 ? `「${props.opps[0]?.companyName}」` : `所选 ${props.opps?.length ?? 0} 个商机`;
  return (
    <Modal
      open={props.opps !== null}
      title="转移商机"
      width={480}
      okText="转移"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">将{what}转给同事负责，新负责人会收到消息提醒。</Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item name="userId" label="新负责人" rules={[{ required: true, message: '请选择新负责人' }]}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder="选择同事"
            options={(owners.data ?? []).map((u) => ({ value: u.userId, label: u.hymc }))}
          />
        </Form.Item>
        <Form.Item name="reason" label="转移原因">
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// --- convert ---------------------------------------------------------------------------------------

/** 转为客户: tax number, contract template and term; creates the client and a draft contract once. */
export function ConvertDialog(props: {
  opp: OppItem | null;
  onClose: () => void;
  onDone: (r: { enterpriseId: number; contractNo: string }) => void;
}) {
  const [form] = Form.useForm<{
    qysh: string;
    templateId: number;
    sign: Dayjs;
    term: [Dayjs, Dayjs];
    payCycle: number;
  }>();
  const [saving, setSaving] = useState(false);
  const templates = useQuery({
    queryKey: ['opportunity', 'templates'],
    queryFn: () => call(selectTemplateListCall, {}),
    enabled: props.opp !== null,
  });
  useEffect(() => {
    if (props.opp) {
      form.resetFields();
      const start = dayjs().add(1, 'month').startOf('month');
      form.setFieldsValue({ sign: dayjs(), term: [start, start.add(1, 'year').subtract(1, 'day')], payCycle: 3 });
    }
  }, [props.opp, form]);
  const submit = async () => {
    if (!props.opp) return;
    const v = await form.validateFields();
    setSaving(true);
    try {
      const r = await call(oppConvertCall, {
        id: props.opp.id,
        qysh: v.qysh,
        templateId: v.templateId,
        signDate: v.sign.format('YYYY-MM-DD'),
        startDate: v.term[0].format('YYYY-MM-DD'),
        endDate: v.term[1].format('YYYY-MM-DD'),
        payCycle: v.payCycle as 0 | 1 | 3 | 6 | 12,
      });
      if (r) {
        toast('success', OPP_MSG.converted);
        props.onDone(r);
      }
      props.onClose();
    } catch {
      // told
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={props.opp !== null}
      title={`转为客户 · ${props.opp?.companyName ?? ''}`}
      width={560}
      okText="转为客户并生成合同"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        客户进入“我的客户”，由商机负责人负责；同时按所选合同模板生成一份待提交的合同，可在合同列表中核对后提交。
      </Typography.Paragraph>
      <Form form={form} layout="vertical">
        <Form.Item
          name="qysh"
          label="企业税号"
          rules={[
            { required: true, message: '请输入企业税号' },
            { pattern: /^[0-9A-Za-z]{6,20}$/, message: '税号为6-20位数字或字母' },
          ]}
        >
          <Input maxLength={20} placeholder="统一社会信用代码" />
        </Form.Item>
        <Form.Item name="templateId" label="合同模板" rules={[{ required: true, message: '请选择合同模板' }]}>
          <Select
            placeholder="选择合同模板，服务项目和价格按模板带出"
            options={(templates.data ?? []).map((t) => ({
              value: t.id,
              label: `${t.tempName}（¥${t.tempTotalPrice}）`,
            }))}
          />
        </Form.Item>
        <Space size={16} style={{ display: 'flex' }}>
          <Form.Item name="sign" label="签订日期" rules={[{ required: true, message: '请选择签订日期' }]}>
            <DatePicker />
          </Form.Item>
          <Form.Item name="payCycle" label="付款周期" rules={[{ required: true, message: '请选择付款周期' }]}>
            <Select style={{ width: 120 }} options={PAY_CYCLES.map((c) => ({ value: c.value, label: c.label }))} />
          </Form.Item>
        </Space>
        <Form.Item name="term" label="服务期" rules={[{ required: true, message: '请选择服务期' }]}>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

// --- setting ---------------------------------------------------------------------------------------

type StageRow = { id?: number; name: string; kind: 'open' | 'won' | 'lost' };

/** 商机设置: the stages (order, rename, add, remove unused) and the automatic release. */
export function SettingDialog(props: { open: boolean; onClose: () => void; onDone: (s: OppSetting) => void }) {
  const setting = useOppSetting();
  const [rows, setRows] = useState<StageRow[]>([]);
  const [days, setDays] = useState<number>(0);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (props.open && setting.data) {
      setRows(setting.data.stages.map((s) => ({ id: s.id, name: s.name, kind: s.kind as StageRow['kind'] })));
      setDays(setting.data.autoReleaseDays);
    }
  }, [props.open, setting.data]);
  const move = (i: number, d: -1 | 1) => {
    const next = [...rows];
    const [r] = next.splice(i, 1);
    if (r) next.splice(i + d, 0, r);
    setRows(next);
  };
  const submit = async () => {
    if (rows.some((r) => !r.name.trim())) {
      toast('warning', '请输入阶段名称');
      return;
    }
    setSaving(true);
    try {
      const s = await call(saveOppSettingCall, {
        autoReleaseDays: days,
        stages: rows.map((r) => ({ ...(r.id ? { id: r.id } : {}), name: r.name.trim(), kind: r.kind })),
      });
      toast('success', OPP_MSG.saved);
      if (s) props.onDone(s);
      props.onClose();
    } catch {
      // told
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={props.open}
      title="商机设置"
      width={620}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Typography.Title level={5}>商机阶段</Typography.Title>
      <Typography.Paragraph type="secondary">
        按销售流程排序；“赢单”阶段的商机可以转为客户，“输单”表示丢单。已有商机的阶段不能删除。
      </Typography.Paragraph>
      <div className="dzy-opp-stage-list">
        {rows.map((r, i) => (
          <Space key={r.id ?? `new-${i}`} className="dzy-opp-stage-row" size={8}>
            <Typography.Text type="secondary" style={{ width: 20, display: 'inline-block' }}>
              {i + 1}
            </Typography.Text>
            <Input
              value={r.name}
              maxLength={20}
              style={{ width: 200 }}
              aria-label={`阶段${i + 1}名称`}
              onChange={(e) => setRows(rows.map((x, k) => (k === i ? { ...x, name: e.target.value } : x)))}
            />
            <Select
              value={r.kind}
              style={{ width: 110 }}
              options={OPP_STAGE_KINDS.map((k) => ({ value: k.value, label: k.label }))}
              onChange={(kind) => setRows(rows.map((x, k) => (k === i ? { ...x, kind } : x)))}
            />
            <Button size="small" disabled={i === 0} onClick={() => move(i, -1)}>
              上移
            </Button>
            <Button size="small" disabled={i === rows.length - 1} onClick={() => move(i, 1)}>
              下移
            </Button>
            <Button
              size="small"
              danger
              type="text"
              icon={<DeleteOutlined />}
              aria-label="删除阶段"
              disabled={rows.length <= 2}
              onClick={() => setRows(rows.filter((_, k) => k !== i))}
            />
          </Space>
        ))}
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          disabled={rows.length >= 20}
          onClick={() => setRows([...rows, { name: '', kind: 'open' }])}
        >
          新增阶段
        </Button>
      </div>
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        自动释放到公海
      </Typography.Title>
      <Space wrap size={8}>
        <span>商机超过</span>
        <InputNumber
          min={0}
          max={365}
          precision={0}
          value={days}
          onChange={(v) => setDays(v ?? 0)}
          aria-label="自动释放天数"
          style={{ width: 88 }}
        />
        <span>天未跟进，自动释放到公海</span>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        填 0 表示不自动释放；释放前一天会提醒负责人及时跟进。
      </Typography.Paragraph>
    </Modal>
  );
}
