import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  BATCH_INVITE_MAX,
  IMPORT_MSG,
  INVITE_FILE_MAX_BYTES,
  INVITE_FILE_MSG,
  INVITE_FILES,
  INVITE_VALID_DAYS,
  parseInviteLines,
  saveAgencyInviteListCall,
} from '@dzy/shared';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { isTableFile, TABLE_FILE_ACCEPT } from '../../../components/import-result/table-file';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { downloadFile, uploadFile } from '../../customer/api';
import { useStaffOptions } from '../api';

interface Values {
  text: string;
  role: 0 | 2;
  departmentId?: number;
}
type Result = { sjh: string; hymc: string; ok: boolean; msg: string };

/**
 * 批量邀请: one phone per line, optionally followed by a name (pasted from a spreadsheet's two columns works).
 * Every phone is answered: sent, or why not (already a member, invited, not a phone).
 */
export function BatchInviteDialog({ open, onClose }: { open: boolean; onClose: (sent: boolean) => void }) {
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [results, setResults] = useState<Result[] | null>(null);
  const options = useStaffOptions();
  const role = Form.useWatch('role', form);
  const text = Form.useWatch('text', form) ?? '';
  const count = parseInviteLines(text).length;
  const [reading, setReading] = useState(false);

  // The server reads the sheet (in its spreadsheet worker) into the list; the list is then sent as a pasted one.
  const readFile = async (f: File) => {
    if (!isTableFile(f.name)) toast('warning', IMPORT_MSG.badType);
    else if (f.size > INVITE_FILE_MAX_BYTES) toast('warning', INVITE_FILE_MSG.tooLarge);
    else {
      setReading(true);
      const r = await uploadFile<{ list: { sjh: string; hymc: string }[] }>(INVITE_FILES.upload, f);
      setReading(false);
      if (r) {
        form.setFieldValue('text', r.data.list.map((x) => (x.hymc ? `${x.sjh} ${x.hymc}` : x.sjh)).join('\n'));
        void form.validateFields(['text']);
        toast('success', `已从文件读取 ${r.data.list.length} 人，请核对后发送`);
      }
    }
    return Upload.LIST_IGNORE;
  };

  const close = () => {
    const sent = (results ?? []).some((r) => r.ok);
    setResults(null);
    form.resetFields();
    onClose(sent);
  };

  const submit = async (values: Values) => {
    const list = parseInviteLines(values.text);
    if (list.length === 0) {
      toast('warning', '请填写要邀请的手机号');
      return;
    }
    if (list.length > BATCH_INVITE_MAX) {
      toast('warning', `一次最多邀请${BATCH_INVITE_MAX}人`);
      return;
    }
    setSaving(true);
    try {
      const r = await call(saveAgencyInviteListCall, {
        list,
        role: values.role,
        ...(values.departmentId ? { departmentId: values.departmentId } : {}),
      });
      if (!r) return;
      setResults(r.results);
      toast(
        r.failed ? 'warning' : 'success',
        `已发送 ${r.sent} 条邀请${r.failed ? `，${r.failed} 个手机号未发送` : ''}`,
      );
    } catch {
      // Told by the request client.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="批量邀请员工"
      open={open}
      width={640}
      onCancel={close}
      maskClosable={false}
      destroyOnHidden
      footer={
        results
          ? [
              <Button key="done" type="primary" onClick={close}>
                完成
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={saving} onClick={() => form.submit()}>
                发送邀请{count ? `（${count}人）` : ''}
              </Button>,
            ]
      }
    >
      {results ? (
        <Table<Result>
          size="small"
          rowKey={(r, i) => `${r.sjh}-${i}`}
          dataSource={results}
          pagination={results.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
          columns={[
            { title: '手机号', dataIndex: 'sjh', width: 130 },
            { title: '姓名', dataIndex: 'hymc', width: 100, render: (v: string) => v || '—' },
            {
              title: '结果',
              dataIndex: 'msg',
              render: (m: string, r) => <Tag color={r.ok ? 'success' : 'error'}>{m}</Tag>,
            },
          ]}
        />
      ) : (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`每行一人：手机号，后面可跟姓名（空格或逗号隔开），可从表格复制两列粘贴，或按模板填写 .xlsx（或 .csv）导入。一次最多${BATCH_INVITE_MAX}人，每人收到一条邀请短信，${INVITE_VALID_DAYS}天内有效。`}
          />
          <Space size={16} style={{ marginBottom: 12, marginLeft: 84 }} wrap>
            <Upload accept={TABLE_FILE_ACCEPT} showUploadList={false} beforeUpload={readFile}>
              <Button icon={<UploadOutlined />} loading={reading}>
                从Excel导入
              </Button>
            </Upload>
            <Button
              type="link"
              icon={<DownloadOutlined />}
              style={{ padding: 0 }}
              onClick={() => downloadFile(INVITE_FILES.template, '批量邀请员工模板.xlsx')}
            >
              下载模板
            </Button>
          </Space>
          <Form<Values>
            form={form}
            name="staffBatchInvite"
            layout="horizontal"
            labelCol={{ flex: '84px' }}
            wrapperCol={{ flex: 1 }}
            colon={false}
            initialValues={{ role: 0 }}
            onFinish={submit}
          >
            <Form.Item label="名单" name="text" rules={[{ required: true, message: '请填写要邀请的手机号' }]}>
              <Input.TextArea rows={8} placeholder={'13800000001 张三\n13800000002，李四'} />
            </Form.Item>
            <Form.Item label="角色标签" name="role">
              <Radio.Group
                options={[
                  { value: 0, label: '部门员工' },
                  { value: 2, label: '部门负责人' },
                ]}
              />
            </Form.Item>
            <Form.Item
              label="部门"
              name="departmentId"
              rules={[{ required: role === 2, message: '部门负责人须选择部门' }]}
            >
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={role === 2 ? '请选择部门' : '选填，可稍后在部门管理中调整'}
                loading={options.isPending}
                options={(options.data?.departments ?? []).map((d) => ({ value: d.id, label: d.label }))}
              />
            </Form.Item>
          </Form>
          <Typography.Text type="secondary">已识别 {count} 人</Typography.Text>
        </>
      )}
    </Modal>
  );
}
