import { CJS_RATE_NAMES, CJS_RATES, saveVoucherRulesCall, type VoucherRuleSet } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Select, Space, Switch } from 'antd';
import { useEffect } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { useVoucherRules } from '../api';

const code = [{ required: true, pattern: /^\d{4}(\d{2,3}){0,3}$/, message: '请输入科目编码（如 1122、560201）' }];

/** 记账设置 › 记账规则: the accounts invoices and wages post to, and the period-end defaults. */
export function RulesTab() {
  const can = useHasPerm();
  const editable = can(['account:setting:edit']);
  const qc = useQueryClient();
  const rules = useVoucherRules();
  const [form] = Form.useForm<VoucherRuleSet>();
  useEffect(() => {
    if (rules.data) form.setFieldsValue(rules.data);
  }, [rules.data, form]);
  const save = async (values: VoucherRuleSet) => {
    const data = await call(saveVoucherRulesCall, { rules: values });
    if (data) {
      toast('success', '记账规则已保存');
      void qc.invalidateQueries();
    }
  };
  return (
    <Form<VoucherRuleSet>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '160px' }}
      className="dzy-rules-form"
      disabled={!editable}
      onFinish={(v) => void save(v)}
    >
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Card
          size="small"
          title="销项发票 → 凭证（借 应收账款 / 贷 主营业务收入、应交增值税）"
          loading={rules.isLoading}
        >
          <Form.Item label="摘要" name={['sales', 'summary']} rules={[{ required: true, max: 40 }]}>
            <Input />
          </Form.Item>
          <Form.Item label="借方科目（价税合计）" name={['sales', 'debit']} rules={code}>
            <Input placeholder="1122" />
          </Form.Item>
          <Form.Item label="贷方收入科目" name={['sales', 'income']} rules={code}>
            <Input placeholder="5001" />
          </Form.Item>
          <Form.Item
            label="贷方税额科目"
            name={['sales', 'tax']}
            rules={code}
            extra="222101 表示账套的应交增值税（一般纳税人为销项税额）"
          >
            <Input placeholder="222101" />
          </Form.Item>
        </Card>
        <Card size="small" title="进项发票 → 凭证（借 库存商品或费用、进项税额 / 贷 应付账款）">
          <Form.Item label="摘要" name={['purchase', 'summary']} rules={[{ required: true, max: 40 }]}>
            <Input />
          </Form.Item>
          <Form.Item label="货物记入" name={['purchase', 'goods']} rules={code}>
            <Input placeholder="1405" />
          </Form.Item>
          <Form.Item label="服务、费用记入" name={['purchase', 'expense']} rules={code}>
            <Input placeholder="560202" />
          </Form.Item>
          <Form.Item
            label="进项税额科目"
            name={['purchase', 'tax']}
            rules={code}
            extra="一般纳税人的专用发票税额单独入账，其余计入成本费用"
          >
            <Input placeholder="222101" />
          </Form.Item>
          <Form.Item label="贷方科目" name={['purchase', 'credit']} rules={code}>
            <Input placeholder="2202" />
          </Form.Item>
        </Card>
        <Card size="small" title="工资（个税申报收入额）→ 凭证">
          <Form.Item label="摘要" name={['payroll', 'summary']} rules={[{ required: true, max: 40 }]}>
            <Input />
          </Form.Item>
          <Form.Item label="借方科目" name={['payroll', 'debit']} rules={code}>
            <Input placeholder="560201" />
          </Form.Item>
          <Form.Item label="贷方科目" name={['payroll', 'credit']} rules={code}>
            <Input placeholder="221101" />
          </Form.Item>
        </Card>
        <Card size="small" title="期末结转默认值">
          <Form.Item label="城建税税率" name={['close', 'cjsRate']}>
            <Select options={CJS_RATES.map((r) => ({ value: r, label: CJS_RATE_NAMES[r] }))} style={{ width: 200 }} />
          </Form.Item>
          <Form.Item
            label="小规模减半征收"
            name={['close', 'halve']}
            valuePropName="checked"
            extra="小规模纳税人城建税、教育费附加、地方教育附加减半（2023年至2027年）"
          >
            <Switch />
          </Form.Item>
          <Form.Item
            label="批量结账计提所得税"
            name={['close', 'incomeTax']}
            valuePropName="checked"
            extra="季末（3、6、9、12月）批量结账时按本年累计利润计提企业所得税，并在结账检查中要求已计提"
          >
            <Switch />
          </Form.Item>
        </Card>
        {editable ? (
          <Button type="primary" htmlType="submit">
            保存规则
          </Button>
        ) : null}
      </Space>
    </Form>
  );
}
