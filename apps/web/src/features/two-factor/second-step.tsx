import {
  REMEMBER_DEVICE_DAYS,
  type SessionInfo,
  type TwoFactorPending,
  totpDigits,
  twoFactorEnrolConfirmCall,
  twoFactorEnrolStartCall,
  twoFactorVerifyCall,
} from '@dzy/shared';
import { Alert, Button, Checkbox, ConfigProvider, Input, QRCode, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { brandTheme } from '../../lib/antd-theme';
import { ApiError, call } from '../../lib/request';
import { loginBrandColor } from '../brand/login-brand';
import { RecoveryCodes } from './recovery-codes';
import './two-factor.css';

type Props = {
  pending: TwoFactorPending['twoFactor'];
  onSignedIn: (info: SessionInfo) => void;
  onCancel: () => void;
};

const errorText = (err: unknown) => (err instanceof ApiError ? err.message : '验证失败，请稍后重试');

/**
 * The sign-in's second step (loaded only when one is due): the authenticator's 6-digit code or a
 * recovery code, with "在此设备上 30 天内不再询问"; or, when the agency requires two factors and the user
 * has none yet, the enrolment before anything else.
 */
export default function SecondStep({ pending, onSignedIn, onCancel }: Props) {
  // On a provider's sign-in page (/login/{fwsid}) the step wears the provider's colour like the form it replaces.
  return (
    <ConfigProvider theme={brandTheme(loginBrandColor())}>
      {pending.enrol ? (
        <ForcedEnrol ticket={pending.ticket} onSignedIn={onSignedIn} onCancel={onCancel} />
      ) : (
        <CodeStep ticket={pending.ticket} onSignedIn={onSignedIn} onCancel={onCancel} />
      )}
    </ConfigProvider>
  );
}

/** What a code box keeps of typed or pasted text ('123 456', full-width digits): the first six digits. */
export const codeInput = (v: string) => totpDigits(v).replace(/\D/g, '').slice(0, 6);

function CodeStep({ ticket, onSignedIn, onCancel }: { ticket: string } & Omit<Props, 'pending'>) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const v = value.trim();
    if (!useRecovery && !/^\d{6}$/.test(v)) return setError('请输入6位数字验证码');
    if (useRecovery && !v) return setError('请输入恢复码');
    setBusy(true);
    setError(null);
    try {
      const info = await call(
        twoFactorVerifyCall,
        { ticket, remember, ...(useRecovery ? { recoveryCode: v } : { code: v }) },
        { handle: 'all' },
      );
      if (info) onSignedIn(info);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="dzy-2fa-step" data-testid="two-factor-step">
      <Typography.Title level={5}>两步验证</Typography.Title>
      <Typography.Paragraph type="secondary">
        {useRecovery
          ? '请输入一个未使用过的恢复码（每个只能使用一次）。'
          : '请打开手机上的验证器应用，输入显示的6位验证码。'}
      </Typography.Paragraph>
      <Input
        size="large"
        autoFocus
        name={useRecovery ? 'recoveryCode' : 'totp'}
        inputMode={useRecovery ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        maxLength={useRecovery ? 20 : 12}
        placeholder={useRecovery ? '恢复码，如 abcde-fghjk' : '6位验证码'}
        value={value}
        onChange={(e) => {
          setValue(useRecovery ? e.target.value : codeInput(e.target.value));
          setError(null);
        }}
        onPressEnter={() => void submit()}
      />
      <Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} className="dzy-2fa-remember">
        在此设备上 {REMEMBER_DEVICE_DAYS} 天内不再询问
      </Checkbox>
      {error && <Alert type="error" showIcon title={error} className="dzy-2fa-error" />}
      <Button type="primary" size="large" block loading={busy} onClick={() => void submit()}>
        验 证
      </Button>
      <Space className="dzy-2fa-links">
        <Button
          type="link"
          onClick={() => {
            setUseRecovery(!useRecovery);
            setValue('');
            setError(null);
          }}
        >
          {useRecovery ? '使用验证器验证码' : '使用恢复码'}
        </Button>
        <Button type="link" onClick={onCancel}>
          返回登录
        </Button>
      </Space>
    </div>
  );
}

/** Enrolment as a step of the sign-in (the agency requires it): QR, first code, then the recovery codes. */
function ForcedEnrol({ ticket, onSignedIn, onCancel }: { ticket: string } & Omit<Props, 'pending'>) {
  const [secret, setSecret] = useState<{ secret: string; otpauth: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ codes: string[]; info: SessionInfo } | null>(null);

  useEffect(() => {
    call(twoFactorEnrolStartCall, { ticket }, { handle: 'all' }).then(setSecret, (err) => setError(errorText(err)));
  }, [ticket]);

  if (done) {
    return (
      <div className="dzy-2fa-step">
        <RecoveryCodes codes={done.codes} />
        <Button type="primary" size="large" block onClick={() => onSignedIn(done.info)}>
          我已保存恢复码，进入系统
        </Button>
      </div>
    );
  }
  return (
    <div className="dzy-2fa-step" data-testid="two-factor-enrol">
      <Typography.Title level={5}>开启两步验证</Typography.Title>
      <Alert type="info" showIcon title="您所在的机构要求使用两步验证，请先完成绑定再进入系统。" />
      {secret ? (
        <EnrolForm
          secret={secret}
          onConfirm={async (code) => {
            const r = await call(twoFactorEnrolConfirmCall, { ticket, code }, { handle: 'all' });
            if (r?.session) setDone({ codes: r.recoveryCodes, info: r.session });
          }}
        />
      ) : (
        error && <Alert type="error" showIcon title={error} className="dzy-2fa-error" />
      )}
      <Button type="link" onClick={onCancel}>
        返回登录
      </Button>
    </div>
  );
}

/** The QR code and the secret as text, and the first code that confirms them. */
export function EnrolForm({
  secret,
  onConfirm,
}: {
  secret: { secret: string; otpauth: string };
  onConfirm: (code: string) => Promise<void>;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (!/^\d{6}$/.test(code.trim())) return setError('请输入6位数字验证码');
    setBusy(true);
    setError(null);
    try {
      await onConfirm(code.trim());
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="dzy-2fa-enrol">
      <ol className="dzy-2fa-steps">
        <li>在手机上安装验证器应用（如 Microsoft Authenticator、Google 身份验证器、腾讯身份验证器）。</li>
        <li>用验证器扫描下方二维码；无法扫码时可手动输入密钥。</li>
        <li>输入验证器显示的6位验证码完成绑定。</li>
      </ol>
      <div className="dzy-2fa-qr">
        <QRCode value={secret.otpauth} size={176} bordered />
        <div>
          <Typography.Text type="secondary">密钥（手动输入）</Typography.Text>
          <Typography.Paragraph
            copyable={{ text: secret.secret, tooltips: ['复制密钥', '已复制'] }}
            className="dzy-2fa-secret"
            data-testid="two-factor-secret"
          >
            {secret.secret.replace(/(.{4})/g, '$1 ').trim()}
          </Typography.Paragraph>
        </div>
      </div>
      <Input
        size="large"
        name="totp"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={12}
        placeholder="6位验证码"
        value={code}
        onChange={(e) => {
          setCode(codeInput(e.target.value));
          setError(null);
        }}
        onPressEnter={() => void submit()}
      />
      {error && <Alert type="error" showIcon title={error} className="dzy-2fa-error" />}
      <Button type="primary" size="large" block loading={busy} onClick={() => void submit()}>
        完成绑定
      </Button>
    </div>
  );
}
