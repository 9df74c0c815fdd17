import { DeleteOutlined, PlusOutlined, SettingOutlined } from '@ant-design/icons';
import {
  type CredentialInput,
  type Credentials,
  CUSTOMER_MSG,
  checkEmail,
  checkLandline,
  checkMobile,
  checkTaxNumber,
  customerCreateCall,
  customerDetailCall,
  customerUpdateCall,
  DLFS_OPTIONS,
  LOGIN_TYPE_OPTIONS,
  QYXZ_OPTIONS,
  qyshWarning,
  SFBM_OPTIONS,
  shareTotal,
  stripSpaces,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Checkbox,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { ruleOf, taxNumberInput } from '../../../lib/form-rules';
import { call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';
import { CUSTOMER_KEYS, useAllocateUsers, useGrades, useLabels } from '../api';
import { DictionaryEditor } from './dictionary-editor';
import { RegionCascader } from './region-cascader';

/** Sentinel of a credential field the user chose to clear (sent as ''). */
const CLEAR = '\u0000clear';

interface FormValues {
  qymc: string;
  qysh: string;
  qyxz: '0' | '1';
  region: string[];
  address: string;
  fjh: string;
  gradeId: number | null;
  labelIds: number[];
  allocate_user?: number;
  remark: string;
  contacts: {
    name: string;
    position?: string;
    mobile?: string;
    landline?: string;
    email?: string;
    isPrimary?: boolean;
  }[];
  shareholders: { name: string; share: number }[];
  credentials: Partial<Record<keyof Credentials, string>>;
}

/** A stored credential: left empty it is kept, typed it is replaced, 清除 clears it. */
function CredentialField({
  value,
  onChange,
  stored,
  secret,
  placeholder,
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  stored: string;
  secret: boolean;
  placeholder: string;
}) {
  const cleared = value === CLEAR;
  const hint = stored ? `已保存 ${stored}` : placeholder;
  const input = secret ? (
    <Input.Password
      value={cleared ? '' : (value ?? '')}
      onChange={(e) => onChange?.(e.target.value || undefined)}
      placeholder={cleared ? '保存后清除' : hint}
      autoComplete="new-password"
      disabled={cleared}
      maxLength={64}
    />
  ) : (
    <Input
      value={cleared ? '' : (value ?? '')}
      onChange={(e) => onChange?.(e.target.value || undefined)}
      placeholder={cleared ? '保存后清除' : hint}
      autoComplete="off"
      disabled={cleared}
      maxLength={50}
    />
  );
  if (!stored) return input;
  return (
    <Space.Compact style={{ width: '100%' }}>
      {input}
      <Button onClick={() => onChange?.(cleared ? undefined : CLEAR)}>{cleared ? '撤销' : '清除'}</Button>
    </Space.Compact>
  );
}

const EMPTY_CREDENTIALS: Credentials = {
  login_type: '',
  xdzswj_dlzh: '',
  xdzswj_pass: '',
  xdzswj_sfbm: '',
  dlfs: '',
  dl_id: '',
  dl_password: '',
  report_password: '',
  agent_login_account: '',
  agent_login_password: '',
  agent_login_qysh: '',
};

/** 新增客户 / 编辑客户 (866 px): basic information, contacts, shareholders and login credentials. */
export function EnterpriseFormDialog({
  open,
  id,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The enterprise to edit; undefined to add one. */
  id?: number;
  onClose: () => void;
  onSaved?: (id: number) => void;
}) {
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const session = useSessionInfo();
  const can = useHasPerm();
  const labels = useLabels();
  const grades = useGrades();
  const users = useAllocateUsers();
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState('base');
  const [dictionary, setDictionary] = useState<'labels' | 'grades' | null>(null);
  const editing = id !== undefined;
  const detail = useQuery({
    queryKey: CUSTOMER_KEYS.detail(id ?? 0),
    queryFn: () => call(customerDetailCall, { id: id as number }),
    enabled: open && editing,
  });
  const stored = detail.data?.credentials ?? EMPTY_CREDENTIALS;
  const qysh = Form.useWatch('qysh', form) ?? '';
  const shareholders = Form.useWatch('shareholders', form) ?? [];
  const dlfs = Form.useWatch(['credentials', 'dlfs'], form) ?? stored.dlfs;
  const total = shareTotal(shareholders.filter((s) => typeof s?.share === 'number'));
  const warning = useMemo(() => (qysh ? qyshWarning(qysh) : null), [qysh]);

  useEffect(() => {
    if (!open) return;
    setTab('base');
    form.resetFields();
    if (!editing) {
      form.setFieldsValue({ qyxz: '1', allocate_user: session.token.id, contacts: [], shareholders: [] });
      return;
    }
    const d = detail.data;
    if (!d) return;
    form.setFieldsValue({
      qymc: d.qymc,
      qysh: d.qysh,
      qyxz: d.qyxz === '0' ? '0' : '1',
      region: d.sssf ? [d.sssf, d.ssds, d.ssqx] : [],
      address: d.address,
      fjh: d.fjh,
      gradeId: d.gradeId,
      labelIds: d.labels.map((l) => l.id),
      remark: d.remark,
      contacts: d.contacts.map((c) => ({ ...c })),
      shareholders: d.shareholders.map((s) => ({ name: s.name, share: s.share })),
      credentials: {
        login_type: d.credentials.login_type,
        xdzswj_sfbm: d.credentials.xdzswj_sfbm,
        dlfs: d.credentials.dlfs,
        agent_login_qysh: d.credentials.agent_login_qysh,
      },
    });
  }, [open, editing, detail.data, form, session.token.id]);

  const credentialsOf = (c: FormValues['credentials'] | undefined): CredentialInput | undefined => {
    if (!c) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(c)) {
      if (v === undefined || v === null) continue;
      const plain = k as keyof Credentials;
      // Selects are sent as chosen; text fields only when typed or cleared.
      if (['login_type', 'xdzswj_sfbm', 'dlfs', 'agent_login_qysh'].includes(plain)) {
        if (v !== stored[plain]) out[k] = v === CLEAR ? '' : v;
      } else {
        out[k] = v === CLEAR ? '' : v;
      }
    }
    return Object.keys(out).length > 0 ? (out as CredentialInput) : undefined;
  };

  const save = async () => {
    let v: FormValues;
    try {
      v = await form.validateFields();
    } catch (e) {
      const first = (e as { errorFields?: { name: (string | number)[] }[] }).errorFields?.[0]?.name[0];
      setTab(
        first === 'contacts'
          ? 'contacts'
          : first === 'shareholders'
            ? 'shareholders'
            : first === 'credentials'
              ? 'login'
              : 'base',
      );
      toast('warning', '请填写完整');
      return;
    }
    const [sssf = '', ssds = '', ssqx = ''] = v.region ?? [];
    const body = {
      qymc: v.qymc.trim(),
      qysh: stripSpaces(v.qysh ?? ''),
      qyxz: v.qyxz,
      sssf,
      ssds,
      ssqx,
      address: v.address?.trim() ?? '',
      fjh: v.fjh?.trim() ?? '',
      remark: v.remark?.trim() ?? '',
      gradeId: v.gradeId ?? null,
      labelIds: v.labelIds ?? [],
      contacts: (v.contacts ?? []).map((c) => ({
        name: c.name.trim(),
        position: c.position?.trim() ?? '',
        mobile: c.mobile?.trim() ?? '',
        landline: c.landline?.trim() ?? '',
        email: c.email?.trim() ?? '',
        isPrimary: Boolean(c.isPrimary),
      })),
      shareholders: (v.shareholders ?? []).map((s) => ({ name: s.name.trim(), share: s.share })),
      credentials: credentialsOf(v.credentials),
    };
    setSaving(true);
    try {
      const r = editing
        ? await call(customerUpdateCall, { id, ...body })
        : await call(customerCreateCall, { ...body, allocate_user: v.allocate_user });
      toast('success', CUSTOMER_MSG.saved);
      if (r?.warning) toast('warning', r.warning, 5000);
      void queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
      onSaved?.(r?.id ?? 0);
      onClose();
    } catch {
      // Told by the request client (a duplicate tax number names the enterprise).
    } finally {
      setSaving(false);
    }
  };

  const labelOptions = (labels.data ?? []).map((l) => ({
    value: l.id,
    label: (
      <Tag color={l.color} style={{ marginInlineEnd: 0 }}>
        {l.name}
      </Tag>
    ),
    title: l.name,
  }));

  const base = (
    <Row gutter={24}>
      <Col span={12}>
        <Form.Item
          name="qymc"
          label="企业名称"
          rules={[{ required: true, whitespace: true, message: '请输入企业名称' }, { max: 100 }]}
        >
          <Input placeholder="与营业执照一致" count={{ max: 100, show: true }} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="qysh"
          required
          label="企业税号"
          normalize={taxNumberInput}
          rules={[ruleOf((x) => (x ? checkTaxNumber(stripSpaces(x)) : '请输入企业税号'))]}
          validateStatus={warning ? 'warning' : undefined}
          help={warning ?? undefined}
        >
          <Input placeholder="统一社会信用代码或纳税人识别号，6-20位" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="qyxz" label="企业性质" rules={[{ required: true, message: '请选择企业性质' }]}>
          <Radio.Group options={QYXZ_OPTIONS.map((o) => ({ ...o }))} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="region" label="所属地区">
          <RegionCascader key={`${id ?? 'new'}-${detail.data?.id ?? ''}`} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="address" label="详细地址" rules={[{ max: 200, message: '地址不能超过200个字符' }]}>
          <Input placeholder="街道、门牌号" count={{ max: 200, show: true }} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item
          name="fjh"
          label="开票分机号"
          rules={[{ pattern: /^\d{0,4}$/, message: '开票分机号为0-4位数字' }]}
          tooltip="税控设备的分机号，主机为 0"
        >
          <Input placeholder="如 0" maxLength={4} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label="客户等级">
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="gradeId" noStyle>
              <Select
                allowClear
                placeholder="请选择客户等级"
                options={(grades.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              />
            </Form.Item>
            {can(['customer:edit']) && (
              <Button icon={<SettingOutlined />} onClick={() => setDictionary('grades')} aria-label="管理客户等级" />
            )}
          </Space.Compact>
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item label="标签">
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="labelIds" noStyle rules={[{ type: 'array', max: 10, message: '每家企业最多10个标签' }]}>
              <Select
                mode="multiple"
                allowClear
                placeholder="请选择标签"
                options={labelOptions}
                optionFilterProp="title"
                maxTagCount="responsive"
              />
            </Form.Item>
            {can(['customer:edit']) && (
              <Button icon={<SettingOutlined />} onClick={() => setDictionary('labels')} aria-label="管理标签" />
            )}
          </Space.Compact>
        </Form.Item>
      </Col>
      {!editing && (
        <Col span={12}>
          <Form.Item name="allocate_user" label="负责人" tooltip="没有分配客户权限时只能是自己">
            <Select
              disabled={!can(['customer:assign'])}
              options={(users.data ?? []).map((u) => ({
                value: u.userId,
                label: u.departmentName ? `${u.hymc}（${u.departmentName}）` : u.hymc,
              }))}
            />
          </Form.Item>
        </Col>
      )}
      <Col span={24}>
        <Form.Item name="remark" label="备注" rules={[{ max: 500, message: '备注不能超过500个字符' }]}>
          <Input.TextArea rows={2} count={{ max: 500, show: true }} />
        </Form.Item>
      </Col>
    </Row>
  );

  const contacts = (
    <Form.List name="contacts">
      {(list, { add, remove }) => (
        <>
          {list.length === 0 && <Typography.Paragraph type="secondary">还没有联系人。</Typography.Paragraph>}
          {list.map((f, i) => (
            <div key={f.key} className="dzy-customer-sub-row">
              <Row gutter={12} align="top">
                <Col span={4}>
                  <Form.Item
                    name={[f.name, 'name']}
                    label={i === 0 ? '姓名' : undefined}
                    rules={[{ required: true, whitespace: true, message: '请输入联系人姓名' }]}
                  >
                    <Input placeholder="姓名" count={{ max: 20, show: true }} />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item name={[f.name, 'position']} label={i === 0 ? '职务' : undefined}>
                    <Input placeholder="职务" count={{ max: 20, show: true }} />
                  </Form.Item>
                </Col>
                <Col span={5}>
                  <Form.Item
                    name={[f.name, 'mobile']}
                    label={i === 0 ? '手机号' : undefined}
                    // A masked number (号码显示设置) left as shown keeps the stored one on the server.
                    rules={[ruleOf((x) => (x && !/^1\d{2}\*{4}\d{4}$/.test(x) ? checkMobile(x) : null))]}
                  >
                    <Input placeholder="11位手机号" maxLength={11} />
                  </Form.Item>
                </Col>
                <Col span={5}>
                  <Form.Item
                    name={[f.name, 'landline']}
                    label={i === 0 ? '座机' : undefined}
                    rules={[ruleOf((x) => (x ? checkLandline(x) : null))]}
                  >
                    <Input placeholder="0571-88886666" count={{ max: 20, show: true }} />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item
                    name={[f.name, 'email']}
                    label={i === 0 ? '邮箱' : undefined}
                    rules={[ruleOf((x) => (x ? checkEmail(x) : null))]}
                  >
                    <Input placeholder="邮箱" count={{ max: 60, show: true }} />
                  </Form.Item>
                </Col>
                <Col span={2}>
                  <Form.Item label={i === 0 ? '操作' : undefined}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(f.name)}
                      aria-label="删除联系人"
                    />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item name={[f.name, 'isPrimary']} valuePropName="checked" className="dzy-customer-primary">
                <Checkbox
                  onChange={(e) => {
                    if (!e.target.checked) return;
                    const all = form.getFieldValue('contacts') as FormValues['contacts'];
                    form.setFieldValue(
                      'contacts',
                      all.map((c, j) => ({ ...c, isPrimary: j === i })),
                    );
                  }}
                >
                  主要联系人
                </Checkbox>
              </Form.Item>
            </div>
          ))}
          {list.length < 20 && (
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ isPrimary: list.length === 0 })} block>
              添加联系人
            </Button>
          )}
        </>
      )}
    </Form.List>
  );

  const holders = (
    <>
      <Form.List
        name="shareholders"
        rules={[
          {
            validator: async (_r, list: FormValues['shareholders']) => {
              if (shareTotal((list ?? []).filter((s) => typeof s?.share === 'number')) > 100) {
                throw new Error(CUSTOMER_MSG.shareTotal);
              }
            },
          },
        ]}
      >
        {(list, { add, remove }, { errors }) => (
          <>
            {list.length === 0 && <Typography.Paragraph type="secondary">还没有股东信息。</Typography.Paragraph>}
            {list.map((f, i) => (
              <Row key={f.key} gutter={12}>
                <Col span={12}>
                  <Form.Item
                    name={[f.name, 'name']}
                    label={i === 0 ? '股东名称' : undefined}
                    rules={[{ required: true, whitespace: true, message: '请输入股东名称' }]}
                  >
                    <Input placeholder="自然人姓名或企业名称" count={{ max: 50, show: true }} />
                  </Form.Item>
                </Col>
                <Col span={8}>
                  <Form.Item
                    name={[f.name, 'share']}
                    label={i === 0 ? '持股比例' : undefined}
                    rules={[{ required: true, message: '请输入持股比例' }]}
                  >
                    <InputNumber
                      min={0.01}
                      max={100}
                      precision={2}
                      step={1}
                      addonAfter="%"
                      style={{ width: '100%' }}
                      placeholder="0.01-100"
                    />
                  </Form.Item>
                </Col>
                <Col span={4}>
                  <Form.Item label={i === 0 ? '操作' : undefined}>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => remove(f.name)}
                      aria-label="删除股东"
                    />
                  </Form.Item>
                </Col>
              </Row>
            ))}
            <Form.ErrorList errors={errors} />
            <Space style={{ width: '100%', justifyContent: 'space-between' }}>
              {list.length < 50 && (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add()}>
                  添加股东
                </Button>
              )}
              <Typography.Text type={total > 100 ? 'danger' : 'secondary'}>
                合计持股 {total.toFixed(2)}%
              </Typography.Text>
            </Space>
          </>
        )}
      </Form.List>
    </>
  );

  const cred = (name: keyof Credentials, label: string, secret: boolean, placeholder: string) => (
    <Form.Item name={['credentials', name]} label={label}>
      <CredentialField stored={stored[name]} secret={secret} placeholder={placeholder} />
    </Form.Item>
  );

  const login = (
    <>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message="账号密码加密保存，只显示脱敏内容；已保存的留空即不修改，点“清除”删除。查看明文需“查看账号密码”权限，每次查看都会记录。"
      />
      <Row gutter={24}>
        <Col span={12}>
          <Form.Item name={['credentials', 'login_type']} label="登录类型">
            <Select allowClear placeholder="请选择" options={LOGIN_TYPE_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain>
        电子税务局
      </Divider>
      <Row gutter={24}>
        <Col span={8}>{cred('xdzswj_dlzh', '登录账号', false, '身份证号/手机号/用户名')}</Col>
        <Col span={8}>{cred('xdzswj_pass', '登录密码', true, '电子税务局密码')}</Col>
        <Col span={8}>
          <Form.Item name={['credentials', 'xdzswj_sfbm']} label="登录身份">
            <Select allowClear placeholder="请选择" options={SFBM_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </Col>
      </Row>
      <Divider titlePlacement="start" plain>
        个人所得税（扣缴端）
      </Divider>
      <Row gutter={24}>
        <Col span={8}>
          <Form.Item name={['credentials', 'dlfs']} label="登录方式">
            <Radio.Group options={DLFS_OPTIONS.map((o) => ({ ...o }))} />
          </Form.Item>
        </Col>
        {dlfs === '2' ? (
          <>
            <Col span={8}>{cred('dl_id', '实名账号', false, '实名账号')}</Col>
            <Col span={8}>{cred('dl_password', '登录密码', true, '实名账号密码')}</Col>
          </>
        ) : (
          <Col span={8}>{cred('report_password', '申报密码', true, '个税申报密码')}</Col>
        )}
      </Row>
      <Divider titlePlacement="start" plain>
        代理登录
      </Divider>
      <Row gutter={24}>
        <Col span={8}>{cred('agent_login_account', '代理账号', false, '代理人登录账号')}</Col>
        <Col span={8}>{cred('agent_login_password', '代理密码', true, '代理人登录密码')}</Col>
        <Col span={8}>
          <Form.Item
            name={['credentials', 'agent_login_qysh']}
            label="代理机构税号"
            normalize={taxNumberInput}
            rules={[ruleOf((x) => (x ? checkTaxNumber(x) : null))]}
          >
            <Input placeholder="6-20位" />
          </Form.Item>
        </Col>
      </Row>
    </>
  );

  return (
    <>
      <Modal
        open={open}
        title={editing ? '编辑客户' : '新增客户'}
        width={866}
        onCancel={onClose}
        onOk={save}
        okText="保存"
        cancelText="取消"
        confirmLoading={saving}
        destroyOnHidden
        mask={{ closable: false }}
      >
        <Spin spinning={editing && detail.isPending}>
          <Form form={form} layout="vertical" requiredMark preserve>
            <Tabs
              activeKey={tab}
              onChange={setTab}
              items={[
                { key: 'base', label: '基本信息', children: base, forceRender: true },
                { key: 'contacts', label: '联系人', children: contacts, forceRender: true },
                { key: 'shareholders', label: '股东信息', children: holders, forceRender: true },
                { key: 'login', label: '登录信息', children: login, forceRender: true },
              ]}
            />
          </Form>
        </Spin>
      </Modal>
      <DictionaryEditor kind={dictionary} onClose={() => setDictionary(null)} />
    </>
  );
}
