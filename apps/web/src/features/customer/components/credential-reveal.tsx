import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import {
  CODE,
  type Credentials,
  DLFS_OPTIONS,
  LOGIN_TYPE_OPTIONS,
  maskStaffPhone,
  REVEAL_MSG,
  REVEAL_PER_HOUR,
  type RevealLogItem,
  revealCodeCall,
  revealCredentialCall,
  revealLogCall,
  SFBM_OPTIONS,
} from '@dzy/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Modal, Radio, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { Auth } from '../../../components/auth';
import { SmsCodeButton } from '../../../components/sms-code-button';
import { ApiError, call } from '../../../lib/request';
import { useSessionInfo } from '../../../lib/session';

const optionLabel = (options: readonly { value: string; label: string }[], v: string) =>
  options.find((o) => o.value === v)?.label ?? (v || '—');
const revealLogKey = (id: number) => ['customer', 'reveal-log', id] as const;

interface Values {
  reason: string;
  way: 'password' | 'sms';
  password?: string;
  smsCode?: string;
}

/**
 * 查看账号密码 (issue 12): the reason, then the user's own sign-in password or a code sent to their
 * phone. The server checks both, counts the attempt against the hourly limit and audits the reason
 * before it answers with the secrets; wrong answers and the limit show inside the dialog.
 */
export function CredentialRevealDialog({
  id,
  qymc,
  open,
  onClose,
  onRevealed,
}: {
  id: number;
  qymc: string;
  open: boolean;
  onClose: () => void;
  onRevealed: (plain: Credentials) => void;
}) {
  const session = useSessionInfo();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const way = Form.useWatch('way', form);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (v: Values) => {
    setBusy(true);
    setRefusal(null);
    try {
      const plain = await call(
        revealCredentialCall,
        v.way === 'password'
          ? { id, reason: v.reason, password: v.password ?? '' }
          : { id, reason: v.reason, smsCode: v.smsCode ?? '' },
        { handle: [CODE.BAD_REQUEST, CODE.TOO_MANY] },
      );
      if (plain) {
        onRevealed(plain);
        void queryClient.invalidateQueries({ queryKey: revealLogKey(id) });
        form.resetFields();
      }
    } catch (err) {
      if (err instanceof ApiError && !err.handled) {
        const field = v.way === 'password' ? 'password' : 'smsCode';
        if (err.code === CODE.BAD_REQUEST && !err.message.includes(REVEAL_MSG.reason)) {
          form.setFields([{ name: field, errors: [err.message] }]);
        } else {
          setRefusal(err.message);
        }
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title="查看账号密码"
      open={open}
      width={520}
      okText="验证并查看"
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={() => {
        setRefusal(null);
        form.resetFields();
        onClose();
      }}
      maskClosable={false}
      destroyOnHidden
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16 }}
        message={`查看「${qymc}」的明文密码需再次验证身份并填写原因。每次查看都会记录，每人每小时最多${REVEAL_PER_HOUR}次。`}
      />
      {refusal && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={refusal} />}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ way: session.token.hasPassword ? 'password' : 'sms' }}
        onFinish={submit}
        requiredMark
      >
        <Form.Item
          name="reason"
          label="查看原因"
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const n = (value ?? '').trim().length;
                return n >= 2 && n <= 100 ? Promise.resolve() : Promise.reject(new Error(REVEAL_MSG.reason));
              },
            },
          ]}
          required
        >
          <Input.TextArea
            rows={2}
            count={{ max: 100, show: true }}
            placeholder="如：客户委托本月申报，需登录电子税务局"
          />
        </Form.Item>
        <Form.Item name="way" label="验证方式">
          <Radio.Group
            options={[
              { value: 'password', label: '密码验证', disabled: !session.token.hasPassword },
              { value: 'sms', label: '短信验证' },
            ]}
            onChange={() => setRefusal(null)}
          />
        </Form.Item>
        {way === 'sms' ? (
          <Form.Item
            label={`短信验证码（发送至 ${maskStaffPhone(session.phone)}）`}
            required
            style={{ marginBottom: 0 }}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="smsCode"
                noStyle
                rules={[{ required: true, pattern: /^\d{6}$/, message: '请输入6位短信验证码' }]}
              >
                <Input maxLength={6} placeholder="6位验证码" autoComplete="one-time-code" />
              </Form.Item>
              <SmsCodeButton send={() => call(revealCodeCall, {})} />
            </Space.Compact>
          </Form.Item>
        ) : (
          <Form.Item
            name="password"
            label="登录密码"
            rules={[{ required: true, message: '请输入您的登录密码' }]}
            style={{ marginBottom: 0 }}
          >
            <Input.Password placeholder="您本人的登录密码" autoComplete="current-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

function RevealLog({ id }: { id: number }) {
  const log = useQuery({ queryKey: revealLogKey(id), queryFn: () => call(revealLogCall, { id }) });
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 20 }}>
        最近查看记录
      </Typography.Title>
      <Table<RevealLogItem>
        size="small"
        rowKey={(r) => `${r.at}-${r.userName}`}
        loading={log.isPending}
        dataSource={log.data ?? []}
        pagination={false}
        locale={{ emptyText: '暂无查看记录' }}
        columns={[
          { title: '查看人', dataIndex: 'userName', width: 100, ellipsis: true },
          {
            title: '时间',
            dataIndex: 'at',
            width: 150,
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          { title: '原因', dataIndex: 'reason', ellipsis: { showTitle: true } },
        ]}
      />
    </>
  );
}

/** The drawer's 账号密码 tab: masked by default; 查看明文 asks for the reason and re-authentication. */
export function CredentialsPanel({ id, qymc, masked }: { id: number; qymc: string; masked: Credentials }) {
  const [plain, setPlain] = useState<Credentials | null>(null);
  const [asking, setAsking] = useState(false);
  const shown = plain ?? masked;
  const v = (x: string) => x || <Typography.Text type="secondary">未设置</Typography.Text>;
  return (
    <>
      <Space style={{ marginBottom: 12, justifyContent: 'space-between', width: '100%' }}>
        <Typography.Text type="secondary">
          {plain ? '正在显示明文，本次查看已记录。' : '账号与密码已脱敏显示。'}
        </Typography.Text>
        <Auth perms={['customer:credential:reveal']}>
          <Button
            size="small"
            icon={plain ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            onClick={() => (plain ? setPlain(null) : setAsking(true))}
          >
            {plain ? '隐藏' : '查看明文'}
          </Button>
        </Auth>
      </Space>
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="登录类型" span={2}>
          {optionLabel(LOGIN_TYPE_OPTIONS, shown.login_type)}
        </Descriptions.Item>
        <Descriptions.Item label="电子税务局账号">{v(shown.xdzswj_dlzh)}</Descriptions.Item>
        <Descriptions.Item label="电子税务局密码">{v(shown.xdzswj_pass)}</Descriptions.Item>
        <Descriptions.Item label="登录身份" span={2}>
          {optionLabel(SFBM_OPTIONS, shown.xdzswj_sfbm)}
        </Descriptions.Item>
        <Descriptions.Item label="个税登录方式" span={2}>
          {optionLabel(DLFS_OPTIONS, shown.dlfs)}
        </Descriptions.Item>
        <Descriptions.Item label="个税实名账号">{v(shown.dl_id)}</Descriptions.Item>
        <Descriptions.Item label="个税登录密码">{v(shown.dl_password)}</Descriptions.Item>
        <Descriptions.Item label="个税申报密码" span={2}>
          {v(shown.report_password)}
        </Descriptions.Item>
        <Descriptions.Item label="代理登录账号">{v(shown.agent_login_account)}</Descriptions.Item>
        <Descriptions.Item label="代理登录密码">{v(shown.agent_login_password)}</Descriptions.Item>
        <Descriptions.Item label="代理机构税号" span={2}>
          {v(shown.agent_login_qysh)}
        </Descriptions.Item>
      </Descriptions>
      <Auth perms={['customer:credential:reveal']}>
        <RevealLog id={id} />
        <CredentialRevealDialog
          id={id}
          qymc={qymc}
          open={asking}
          onClose={() => setAsking(false)}
          onRevealed={(p) => {
            setPlain(p);
            setAsking(false);
          }}
        />
      </Auth>
    </>
  );
}
