import {
  AGENCY_APPLY_OK_MSG,
  AGENCY_NAME_TAKEN_MSG,
  AGENCY_SCALE_OPTIONS,
  AGENCY_TAX_RE,
  agencyApplyCall,
  CODE,
  selectPersonalAgencyInfoCall,
} from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Cascader, Col, Form, Input, Modal, Row, Select } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../../lib/feedback';
import { taxNumberInput, textInput } from '../../../lib/form-rules';
import { ApiError, call } from '../../../lib/request';
import { useDict } from '../../dicts/use-dict';
import { agencyTaxChangeProblem } from '../agency-tax';
import { loadRegions, ORG_KEYS, useAgencyRelation } from '../api';

interface RegionOption {
  value: string;
  label: string;
  isLeaf: boolean;
  loading?: boolean;
  children?: RegionOption[];
}

interface Values {
  agencyName: string;
  agencyTax: string;
  region: string[];
  address: string;
  agencyScale: number;
  staffNum: number;
}

const SCALE_FALLBACK = AGENCY_SCALE_OPTIONS.map((o) => ({ code: String(o.value), label: o.label }));
/** 会计人数 keeps the fixed bands: it is not a dictionary the operator edits. */
export const STAFF_NUM_OPTIONS = AGENCY_SCALE_OPTIONS.map((o) => ({ value: o.value, label: o.label }));

/**
 * The fields an agency application and a factory application share: region (to the county), address,
 * 机构规模 (as the operator keeps the dictionary, foundation.md §7 "Agency creation") and 会计人数. Pasted
 * addresses are made ASCII where full width and trimmed when the field is left.
 */
export function AgencyPlaceFields({ open }: { open: boolean }) {
  const form = Form.useFormInstance();
  const scaleOptions = useDict('agency_scale', SCALE_FALLBACK)
    .filter((o) => /^\d+$/.test(o.code))
    .map((o) => ({ value: Number(o.code), label: o.label }));
  const { options, loadData } = useRegionOptions(open);
  return (
    <>
      <Form.Item
        label="所在地区"
        name="region"
        required
        rules={[
          {
            validator: async (_, v: unknown) => {
              const codes = Array.isArray(v) ? v : [];
              if (codes.length === 0) throw new Error('请选择地区');
              if (codes.length < 3) throw new Error('请选择区县');
            },
          },
        ]}
      >
        <Cascader<RegionOption>
          options={options}
          loadData={loadData}
          placeholder="请选择省 / 市 / 区县"
          changeOnSelect={false}
          showSearch={false}
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Form.Item
        label="详细地址"
        name="address"
        normalize={textInput}
        rules={[
          { required: true, whitespace: true, message: '请输入地址' },
          { max: 100, message: '地址不能超过100个字符' },
        ]}
      >
        <Input
          placeholder="请输入地址"
          count={{ max: 100, show: true }}
          onBlur={() => form.setFieldValue('address', String(form.getFieldValue('address') ?? '').trim())}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label="机构规模" name="agencyScale" rules={[{ required: true, message: '请选择机构规模' }]}>
            <Select placeholder="请选择机构规模" options={scaleOptions} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="会计人数" name="staffNum" rules={[{ required: true, message: '请选择会计人数' }]}>
            <Select placeholder="请选择会计人数" options={STAFF_NUM_OPTIONS} />
          </Form.Item>
        </Col>
      </Row>
    </>
  );
}

/** Province → city → district, each level fetched when its parent is opened (also the factory application). */
function useRegionOptions(open: boolean) {
  const [options, setOptions] = useState<RegionOption[]>([]);
  useEffect(() => {
    if (!open || options.length > 0) return;
    loadRegions(1)
      .then((list) => setOptions(list.map((r) => ({ value: r.code, label: r.name, isLeaf: false }))))
      .catch(() => undefined);
  }, [open, options.length]);

  const loadData = async (selected: RegionOption[]) => {
    const target = selected.at(-1);
    if (!target || target.children) return;
    const level = (selected.length + 1) as 2 | 3;
    target.loading = true;
    setOptions((o) => [...o]);
    try {
      const list = await loadRegions(level, target.value);
      target.children = list.map((r) => ({ value: r.code, label: r.name, isLeaf: level === 3 }));
    } catch {
      // The request client has told the user; the level stays closed and can be opened again.
    } finally {
      target.loading = false;
      setOptions((o) => [...o]);
    }
  };
  return { options, loadData };
}

/**
 * 创建代理机构 (foundation.md §2, §5): name, tax number, province/city/district, address, scale and
 * accountant count. The application is reviewed by the platform; the result comes by SMS.
 */
export function CreateAgencyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const relation = useAgencyRelation();
  const [submitting, setSubmitting] = useState(false);
  const pending = relation.data?.agencyApplyStatus === 0;

  useEffect(() => {
    if (open) void relation.refetch();
  }, [open, relation.refetch]);

  const nameFree = async (_: unknown, value: unknown) => {
    const name = typeof value === 'string' ? value.trim() : '';
    if (!name) return;
    const r = await call(selectPersonalAgencyInfoCall, { agencyName: name }, { handle: 'all' }).catch(() => null);
    if (r?.exists) throw new Error(AGENCY_NAME_TAKEN_MSG);
  };

  // foundation.md §5: on change (leaving the field changed) the tax number must be 6-20 digits, else
  // 税号为6-20位数字 and the field is cleared.
  const checkTaxOnChange = () => {
    const v: string = form.getFieldValue('agencyTax') ?? '';
    const problem = agencyTaxChangeProblem(v);
    if (problem) {
      toast('warning', problem);
      form.setFieldValue('agencyTax', '');
    }
  };

  const submit = async (values: Values) => {
    const [sssf = '', ssds = '', ssqx = ''] = values.region;
    setSubmitting(true);
    try {
      await call(
        agencyApplyCall,
        {
          agencyName: values.agencyName.trim(),
          agencyTax: values.agencyTax,
          address: values.address.trim(),
          agencyScale: values.agencyScale,
          staffNum: values.staffNum,
          sssf,
          ssds,
          ssqx,
        },
        { handle: [CODE.CONFLICT] },
      );
      toast('success', AGENCY_APPLY_OK_MSG, 5000);
      void queryClient.invalidateQueries({ queryKey: ORG_KEYS.relation });
      form.resetFields();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && !err.handled) {
        if (err.message === AGENCY_NAME_TAKEN_MSG) form.setFields([{ name: 'agencyName', errors: [err.message] }]);
        else toast('warning', err.message);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      title="创建代理机构"
      open={open}
      onCancel={onClose}
      width={650}
      destroyOnHidden
      centered
      maskClosable={false}
      footer={[
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={submitting} disabled={pending} onClick={() => form.submit()}>
          提交申请
        </Button>,
      ]}
    >
      {pending && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="您已提交过代理机构申请，正在审核中，审核结果将以短信通知您。"
        />
      )}
      {relation.data?.agencyApplyStatus === 2 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title="您上次提交的申请未通过审核（原因见短信通知），请核对信息后重新提交。"
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark
        disabled={pending}
        className="dzy-create-agency"
        validateTrigger={['onChange', 'onBlur']}
      >
        <Form.Item
          label="代理所名称"
          name="agencyName"
          validateFirst
          rules={[
            { required: true, whitespace: true, message: '请输入代理所名称' },
            { max: 50, message: '代理所名称不能超过50个字符' },
            { validator: nameFree, validateTrigger: 'onBlur' },
          ]}
        >
          <Input placeholder="请输入代理所名称（与营业执照一致）" count={{ max: 50, show: true }} />
        </Form.Item>
        <Form.Item
          label="代理所税号"
          name="agencyTax"
          normalize={taxNumberInput}
          rules={[
            { required: true, message: '请输入代理所税号' },
            { pattern: AGENCY_TAX_RE, message: '税号为6-20位数字或字母', validateTrigger: 'onBlur' },
          ]}
        >
          <Input placeholder="请输入代理所税号（6-20位数字）" maxLength={20} onBlur={checkTaxOnChange} />
        </Form.Item>
        <AgencyPlaceFields open={open} />
      </Form>
      <div className="dzy-create-agency-note">
        提交后由平台审核，审核结果将以短信通知您；审核通过后您将成为该机构的管理员。
      </div>
    </Modal>
  );
}
