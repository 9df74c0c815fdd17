import {
  twoFactorDisableCall,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorRegenerateRecoveryCall,
  twoFactorStatusCall,
} from '@dzy/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Modal, Segmented, Skeleton, Space, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../lib/feedback';
import { ApiError, call } from '../../lib/request';
import { RecoveryCodes } from './recovery-codes';
import { codeInput, EnrolForm } from './second-step';
import './two-factor.css';

const STATUS_KEY = ['two-factor', 'status'] as const;

const shanghai = (iso: string) =>
  new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));

/** 账号安全 in 个人设置: turn two-factor sign-in on (QR, first code, recovery codes) or off (with a code). */
export function TwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => call(twoFactorStatusCall, {}) });
  const [enrolling, setEnrolling] = useState<{ secret: string; otpauth: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [regenerating, setRegenerating] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: STATUS_KEY });

  const start = useMutation({
    mutationFn: () => call(twoFactorEnrolStartCall, {}),
    onSuccess: (data) => setEnrolling(data),
  });

  const s = status.data;
  return (
    <Card title="账号安全" variant="borderless" className="dzy-account-card" style={{ marginTop: 16 }}>
      {!s ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Descriptions column={1} styles={{ label: { width: 120 } }}>
          <Descriptions.Item label="两步验证">
            <Space wrap>
              {s.enabled ? <Tag color="success">已开启</Tag> : <Tag>未开启</Tag>}
              {s.enabled && s.enabledAt && <span>开启于 {shanghai(s.enabledAt)}</span>}
              {s.required && <Tag color="warning">机构要求</Tag>}
            </Space>
          </Descriptions.Item>
          {s.enabled && (
            <>
              <Descriptions.Item label="剩余恢复码">{s.recoveryLeft} 个</Descriptions.Item>
              <Descriptions.Item label="记住的设备">{s.rememberedDevices} 台（30 天内免验证）</Descriptions.Item>
            </>
          )}
        </Descriptions>
      )}
      {s && !s.enabled && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="开启后，登录时除密码或短信验证码外，还需输入手机验证器应用上的6位动态验证码。"
        />
      )}
      {s &&
        (s.enabled ? (
          <Space wrap>
            <Button onClick={() => setRegenerating(true)}>重新生成恢复码</Button>
            <Button danger disabled={s.required} onClick={() => setDisabling(true)}>
              关闭两步验证
            </Button>
          </Space>
        ) : (
          <Button type="primary" loading={start.isPending} onClick={() => start.mutate()}>
            开启两步验证
          </Button>
        ))}
      <Modal
        title={codes && !enrolling ? '恢复码' : '开启两步验证'}
        open={!!enrolling || !!codes}
        footer={
          codes ? (
            <Button type="primary" onClick={() => setCodes(null)}>
              我已保存恢复码
            </Button>
          ) : null
        }
        maskClosable={false}
        closable={!codes}
        onCancel={() => {
          setEnrolling(null);
          setCodes(null);
        }}
        destroyOnHidden
        width={520}
      >
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : (
          enrolling && (
            <EnrolForm
              secret={enrolling}
              onConfirm={async (code) => {
                const r = await call(twoFactorEnrolConfirmCall, { code }, { handle: 'all' });
                setEnrolling(null);
                setCodes(r?.recoveryCodes ?? []);
                toast('success', '两步验证已开启');
                refresh();
              }}
            />
          )
        )}
      </Modal>
      <RegenerateDialog
        open={regenerating}
        onClose={(made) => {
          setRegenerating(false);
          if (made) {
            setCodes(made);
            refresh();
          }
        }}
      />
      <DisableDialog
        open={disabling}
        onClose={(done) => {
          setDisabling(false);
          if (done) refresh();
        }}
      />
    </Card>
  );
}

function DisableDialog({ open, onClose }: { open: boolean; onClose: (done: boolean) => void }) {
  const [kind, setKind] = useState<'code' | 'recovery'>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const off = useMutation({
    mutationFn: () =>
      call(twoFactorDisableCall, kind === 'code' ? { code: value.trim() } : { recoveryCode: value.trim() }, {
        handle: 'all',
      }),
    onSuccess: () => {
      toast('success', '两步验证已关闭');
      setValue('');
      onClose(true);
    },
    onError: (err) => setError(err instanceof ApiError ? err.message : '关闭失败，请稍后重试'),
  });
  return (
    <Modal
      title="关闭两步验证"
      open={open}
      okText="确认关闭"
      okButtonProps={{ danger: true, loading: off.isPending }}
      onOk={() => {
        if (kind === 'code' && !/^\d{6}$/.test(value.trim())) return setError('请输入6位数字验证码');
        if (kind === 'recovery' && !value.trim()) return setError('请输入恢复码');
        off.mutate();
      }}
      onCancel={() => onClose(false)}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert
          type="warning"
          showIcon
          title="关闭后登录只需密码或短信验证码，已记住的设备和未使用的恢复码将全部失效。"
        />
        <Segmented
          value={kind}
          onChange={(v) => {
            setKind(v as 'code' | 'recovery');
            setValue('');
            setError(null);
          }}
          options={[
            { label: '验证器验证码', value: 'code' },
            { label: '恢复码', value: 'recovery' },
          ]}
        />
        <Input
          value={value}
          maxLength={kind === 'code' ? 12 : 20}
          placeholder={kind === 'code' ? '6位验证码' : '恢复码'}
          onChange={(e) => {
            setValue(kind === 'code' ? codeInput(e.target.value) : e.target.value);
            setError(null);
          }}
        />
        {error && <Alert type="error" showIcon title={error} />}
      </Space>
    </Modal>
  );
}

/**
 * 重新生成恢复码: proven with a current authenticator code or the sign-in password; the old codes stop
 * working at once and the new ones are shown once (in the card's codes dialog).
 */
function RegenerateDialog({ open, onClose }: { open: boolean; onClose: (codes: string[] | null) => void }) {
  const [kind, setKind] = useState<'code' | 'password'>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const make = useMutation({
    mutationFn: () =>
      call(twoFactorRegenerateRecoveryCall, kind === 'code' ? { code: value.trim() } : { password: value }, {
        handle: 'all',
      }),
    onSuccess: (r) => {
      toast('success', '已生成新的恢复码，旧恢复码已失效');
      setValue('');
      onClose(r?.recoveryCodes ?? []);
    },
    onError: (err) => setError(err instanceof ApiError ? err.message : '生成失败，请稍后重试'),
  });
  return (
    <Modal
      title="重新生成恢复码"
      open={open}
      okText="生成新恢复码"
      okButtonProps={{ loading: make.isPending }}
      onOk={() => {
        if (kind === 'code' && !/^\d{6}$/.test(value.trim())) return setError('请输入6位数字验证码');
        if (kind === 'password' && !value) return setError('请输入登录密码');
        make.mutate();
      }}
      onCancel={() => {
        setValue('');
        setError(null);
        onClose(null);
      }}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="warning" showIcon title="生成后，之前的恢复码（包括未使用的）将立即失效。" />
        <Segmented
          value={kind}
          onChange={(v) => {
            setKind(v as 'code' | 'password');
            setValue('');
            setError(null);
          }}
          options={[
            { label: '验证器验证码', value: 'code' },
            { label: '登录密码', value: 'password' },
          ]}
        />
        {kind === 'code' ? (
          <Input
            name="totp"
            value={value}
            maxLength={12}
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="6位验证码"
            onChange={(e) => {
              setValue(codeInput(e.target.value));
              setError(null);
            }}
          />
        ) : (
          <Input.Password
            name="password"
            value={value}
            maxLength={64}
            autoComplete="current-password"
            placeholder="登录密码"
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
          />
        )}
        {error && <Alert type="error" showIcon title={error} />}
      </Space>
    </Modal>
  );
}
