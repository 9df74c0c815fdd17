import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { HOTLINE_MAX, type Hotline, saveHotlinesCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { MESSAGE_KEYS } from '../api';

interface Values {
  list: { rxmc: string; rxnr: string }[];
}

/** The administrator's hotline editor: the whole list is saved at once. */
export function HotlineEditor({ list, onClose }: { list: Hotline[]; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const save = async (v: Values) => {
    setSaving(true);
    try {
      await call(saveHotlinesCall, { list: (v.list ?? []).map((h) => ({ rxmc: h.rxmc.trim(), rxnr: h.rxnr.trim() })) });
      toast('success', '保存成功');
      await queryClient.invalidateQueries({ queryKey: MESSAGE_KEYS.hotlines });
      onClose();
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="设置服务热线"
      open
      width={560}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        热线显示在页面右侧帮助面板中，供本机构员工联系服务商或内部支持。最多 {HOTLINE_MAX} 条。
      </Typography.Paragraph>
      <Form
        form={form}
        onFinish={(v) => void save(v)}
        initialValues={{ list: list.map(({ rxmc, rxnr }) => ({ rxmc, rxnr })) }}
      >
        <Form.List name="list">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
                  <Form.Item
                    name={[field.name, 'rxmc']}
                    rules={[
                      { required: true, whitespace: true, message: '请输入热线名称' },
                      { max: 20, message: '热线名称不能超过20个字符' },
                    ]}
                  >
                    <Input placeholder="名称，如 客服热线" style={{ width: 180 }} count={{ max: 20, show: true }} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'rxnr']}
                    rules={[
                      { required: true, whitespace: true, message: '请输入热线号码' },
                      { pattern: /^[0-9+\-()（） 转]+$/, message: '热线号码只能包含数字、+、-、括号、空格和“转”' },
                    ]}
                  >
                    <Input placeholder="号码，如 400-800-1234" style={{ width: 240 }} count={{ max: 50, show: true }} />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label="删除"
                    onClick={() => remove(field.name)}
                  />
                </Space>
              ))}
              <Button
                type="dashed"
                block
                icon={<PlusOutlined />}
                disabled={fields.length >= HOTLINE_MAX}
                onClick={() => add({ rxmc: '', rxnr: '' })}
              >
                添加热线
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
