import {
  clearAgencyCacheCall,
  DEFAULT_PRINT_SETTINGS,
  defKpTypeCall,
  halfWidth,
  JGLX_OPTIONS,
  jglxBatchCall,
  KPFS_OPTIONS,
  kpfsBatchCall,
  PRINT_PAPERS,
  type PrintSettings,
  printSettingsGetCall,
  printSettingsSaveCall,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Divider, Form, InputNumber, Modal, Radio, Select, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { call } from '../../../lib/request';
import { act, CUSTOMER_KEYS } from '../api';

/** Number boxes read full-width digits typed with an IME on (１０ → 10) instead of dropping them. */
const digitsParser = (v: string | undefined): string => halfWidth(v ?? '').replace(/[^\d]/g, '');

/**
 * 客户设置: the agency's default invoicing method and print settings, institution type and invoicing
 * method for the selected clients, and clearing one's remembered filters and drafts.
 */
export function ClientSettingsDialog({
  open,
  selectedIds,
  onClose,
}: {
  open: boolean;
  selectedIds: number[];
  onClose: () => void;
}) {
  const can = useHasPerm();
  const editable = can(['customer:edit']);
  // Print settings are agency-wide: the agency settings permission, as the server asks.
  const printEditable = can(['agency:info:edit']);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PrintSettings>();
  const print = useQuery({
    queryKey: [...CUSTOMER_KEYS.all, 'print-settings'],
    queryFn: () => call(printSettingsGetCall, {}),
    enabled: open,
  });
  const [defKpfs, setDefKpfs] = useState<string | undefined>();
  const [jglx, setJglx] = useState<string | undefined>();
  const [kpfs, setKpfs] = useState<string | undefined>();
  useEffect(() => {
    if (print.data) form.setFieldsValue(print.data);
  }, [print.data, form]);

  const savePrint = async () => {
    const v = await form.validateFields();
    const r = await act(printSettingsSaveCall, { ...DEFAULT_PRINT_SETTINGS, ...v }, '打印设置已保存');
    if (r.ok) void print.refetch();
  };

  return (
    <Modal open={open} title="客户设置" width={640} onCancel={onClose} footer={null} destroyOnHidden>
      <Typography.Title level={5}>开票方式</Typography.Title>
      <Space wrap>
        <span>机构默认：</span>
        <Select
          style={{ width: 260 }}
          placeholder="请选择"
          value={defKpfs}
          disabled={!editable}
          options={KPFS_OPTIONS.map((o) => ({ ...o }))}
          onChange={setDefKpfs}
        />
        <Button
          disabled={!editable || !defKpfs}
          onClick={() => defKpfs && void act(defKpTypeCall, { kpfs: defKpfs }, '默认开票方式已保存')}
        >
          保存
        </Button>
      </Space>
      <Divider />
      <Typography.Title level={5}>所选客户（{selectedIds.length}个）</Typography.Title>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <span>机构类型：</span>
          <Select
            style={{ width: 200 }}
            placeholder="请选择"
            value={jglx}
            disabled={!editable}
            options={JGLX_OPTIONS.map((o) => ({ ...o }))}
            onChange={setJglx}
          />
          <Button
            disabled={!editable || !jglx || selectedIds.length === 0}
            onClick={() => jglx && void act(jglxBatchCall, { aeiIds: selectedIds, jglx }, '机构类型已设置')}
          >
            批量设置
          </Button>
        </Space>
        <Space wrap>
          <span>开票方式：</span>
          <Select
            style={{ width: 260 }}
            placeholder="请选择"
            value={kpfs}
            disabled={!editable}
            options={[{ value: '', label: '跟随机构默认' }, ...KPFS_OPTIONS.map((o) => ({ ...o }))]}
            onChange={setKpfs}
          />
          <Button
            disabled={!editable || kpfs === undefined || selectedIds.length === 0}
            onClick={() =>
              kpfs !== undefined && void act(kpfsBatchCall, { aeiIds: selectedIds, kpfs }, '开票方式已设置')
            }
          >
            批量设置
          </Button>
        </Space>
        {selectedIds.length === 0 && <Typography.Text type="secondary">请先在列表中勾选客户</Typography.Text>}
      </Space>
      <Divider />
      <Typography.Title level={5}>打印设置</Typography.Title>
      <Form form={form} layout="inline" disabled={!printEditable} initialValues={DEFAULT_PRINT_SETTINGS}>
        <Form.Item name="paper" label="纸张">
          <Select style={{ width: 100 }} options={PRINT_PAPERS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item name="orientation" label="方向">
          <Radio.Group
            options={[
              { value: 'portrait', label: '纵向' },
              { value: 'landscape', label: '横向' },
            ]}
          />
        </Form.Item>
        <Form.Item name="marginMm" label="页边距(毫米)" rules={[{ required: true, message: '请输入页边距' }]}>
          <InputNumber<number | string> min={0} max={30} precision={0} parser={digitsParser} />
        </Form.Item>
        <Form.Item name="copies" label="份数" rules={[{ required: true, message: '请输入份数' }]}>
          <InputNumber<number | string> min={1} max={10} precision={0} parser={digitsParser} />
        </Form.Item>
        <Form.Item name="showAgencyName" label="显示机构名称" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="showPrintTime" label="显示打印时间" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
      {printEditable ? (
        <div style={{ textAlign: 'right', marginTop: 12 }}>
          <Button type="primary" onClick={savePrint}>
            保存打印设置
          </Button>
        </div>
      ) : (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 12 }}>
          打印设置为全机构设置，仅机构管理员可修改
        </Typography.Text>
      )}
      <Divider />
      <Space>
        <Button
          onClick={() =>
            Modal.confirm({
              title: '清除缓存',
              content: '将清除您记住的筛选条件和未保存的记事草稿，是否继续？',
              okText: '清除',
              cancelText: '取消',
              onOk: async () => {
                const r = await act(clearAgencyCacheCall, {}, '缓存已清除');
                if (r.ok) void queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.all });
              },
            })
          }
        >
          清除缓存
        </Button>
        <Typography.Text type="secondary">清除您记住的筛选条件与记事草稿</Typography.Text>
      </Space>
    </Modal>
  );
}
