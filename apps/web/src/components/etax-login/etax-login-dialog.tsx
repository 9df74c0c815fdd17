import { LoadingOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import {
  BUREAU_MSG,
  etaxGrantCall,
  HELPER_MSG,
  HELPER_PATH,
  type HelperCookieData,
  type HelperLoginData,
} from '@dzy/shared';
import { Button, Input, Modal, Result, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/feedback';
import { ensureHelper, HelperCallError, type HelperProblem, HelperUnavailable, helperCall } from '../../lib/helper';
import { ApiError, call } from '../../lib/request';
import { HelperProblemDialog } from '../helper-dialogs';
import { HallDialog } from './hall-dialog';
import { TrustedLoginDialog } from './trusted-login-dialog';
import './etax-login.css';

export interface EtaxEnterprise {
  id: number;
  qymc: string;
  qysh: string;
}

type Step =
  | { kind: 'connect' }
  | { kind: 'login' }
  | { kind: 'sms'; phoneMasked: string }
  | { kind: 'failed'; msg: string; mismatch: boolean }
  | { kind: 'hall'; cookie: HelperCookieData };

const SMS_RESEND_S = 60;

/**
 * 登录电子税务局 for one enterprise of the client book, through the local helper (tax-bureau.md §4):
 * the password login, the SMS step (30001 / 30002), the outcomes 0 / 1 / 2, 去验证 when the SMS login
 * has lapsed, and the e-tax hall once logged in. The password stays on the server: the page only
 * passes a one-time grant to the helper.
 */
export function EtaxLoginDialog({ enterprise, onClose }: { enterprise: EtaxEnterprise | null; onClose: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'connect' });
  const [problem, setProblem] = useState<HelperProblem | null>(null);
  const [trusted, setTrusted] = useState(false);
  /** The server's record of the last login: '4' the name and password did not match. */
  const [mismatchSaved, setMismatchSaved] = useState(false);
  const run = useRef(0);

  const fail = useCallback((err: unknown, id: number) => {
    if (run.current !== id) return;
    if (err instanceof HelperUnavailable) {
      setProblem(err.problem);
      return;
    }
    const msg = err instanceof HelperCallError || err instanceof ApiError ? err.message : HELPER_MSG.loginFailed;
    setStep({ kind: 'failed', msg, mismatch: msg.includes('用户名与密码不匹配') });
  }, []);

  const showHall = useCallback(async (e: EtaxEnterprise, id: number) => {
    const cookie = await helperCall<HelperCookieData>(HELPER_PATH.etax, 'get_cookie', { aeiId: e.id });
    if (run.current !== id) return;
    toast('success', '登录成功');
    setStep({ kind: 'hall', cookie });
  }, []);

  const outcome = useCallback(
    async (e: EtaxEnterprise, id: number, r: HelperLoginData | null | undefined) => {
      if (run.current !== id) return;
      // An empty reply from the login helper (tax-bureau.md §8).
      if (!r || typeof r !== 'object' || !('status' in r)) throw new HelperCallError('empty', HELPER_MSG.emptyLogin);
      if (r.status === 1) return showHall(e, id);
      if (r.status === 2) return setStep({ kind: 'sms', phoneMasked: r.phoneMasked });
      setStep({ kind: 'failed', msg: r.msg || HELPER_MSG.loginFailed, mismatch: r.mismatch });
    },
    [showHall],
  );

  const start = useCallback(
    async (e: EtaxEnterprise) => {
      const id = ++run.current;
      setProblem(null);
      setMismatchSaved(false);
      setStep({ kind: 'connect' });
      try {
        await ensureHelper();
        if (run.current !== id) return;
        // Already logged in through this helper: straight to the hall (the spec's auto-login, hasLogin).
        try {
          await showHall(e, id);
          return;
        } catch (err) {
          if (err instanceof HelperUnavailable) throw err;
        }
        setStep({ kind: 'login' });
        const grant = await call(etaxGrantCall, { aeiId: e.id }, { handle: 'all' });
        if (!grant) throw new HelperCallError('grant', HELPER_MSG.loginFailed);
        setMismatchSaved(grant.isVerifySet === '4');
        const r = await helperCall<HelperLoginData>(HELPER_PATH.etax, 'login_etax', {
          grant: grant.grant,
          aeiId: e.id,
        });
        await outcome(e, id, r);
      } catch (err) {
        fail(err, id);
      }
    },
    [fail, outcome, showHall],
  );

  useEffect(() => {
    if (enterprise) void start(enterprise);
    else run.current++;
  }, [enterprise, start]);

  if (!enterprise) return null;
  const close = () => {
    run.current++;
    setProblem(null);
    setTrusted(false);
    onClose();
  };

  if (step.kind === 'hall') {
    return <HallDialog cookie={step.cookie} onClose={close} />;
  }

  return (
    <>
      {/* Only one dialog at a time: a service dialog replaces this one until the helper answers. */}
      {problem === null && (
        <Modal
          open
          title="登录电子税务局"
          width={500}
          centered
          maskClosable={false}
          onCancel={close}
          footer={null}
          destroyOnHidden
        >
          <div className="dzy-etax-ent">
            <SafetyCertificateOutlined />
            <div>
              <div className="dzy-etax-ent-name">{enterprise.qymc}</div>
              <Typography.Text type="secondary">税号 {enterprise.qysh || '—'}</Typography.Text>
            </div>
            {mismatchSaved && (
              <Tag color="red" className="dzy-etax-flag">
                账号密码不匹配
              </Tag>
            )}
          </div>
          {(step.kind === 'connect' || step.kind === 'login') && (
            <div className="dzy-etax-wait" role="status">
              <LoadingOutlined />
              <span>{step.kind === 'connect' ? '正在连接365基础服务…' : '正在登录电子税务局，请稍候…'}</span>
            </div>
          )}
          {step.kind === 'sms' && (
            <SmsStep
              enterprise={enterprise}
              phoneMasked={step.phoneMasked}
              onOutcome={(r) => outcome(enterprise, run.current, r).catch((err) => fail(err, run.current))}
              onError={(err) => fail(err, run.current)}
            />
          )}
          {step.kind === 'failed' && (
            <Result
              status="error"
              title={step.msg}
              subTitle={
                step.mismatch
                  ? '已记录该企业的账号密码不匹配。请在客户资料中修改电子税务局密码后重新登录。'
                  : step.msg.includes(BUREAU_MSG.smsLoginExpired)
                    ? '短信验证已失效，可通过税务局的可信登录重新验证身份。'
                    : undefined
              }
              extra={
                <Space>
                  <Button onClick={close}>关闭</Button>
                  {step.msg.includes(BUREAU_MSG.smsLoginExpired) && (
                    <Button onClick={() => setTrusted(true)}>去验证</Button>
                  )}
                  <Button type="primary" onClick={() => void start(enterprise)}>
                    重新登录
                  </Button>
                </Space>
              }
            />
          )}
        </Modal>
      )}
      <HelperProblemDialog problem={problem} onClose={close} onReady={() => void start(enterprise)} />
      {trusted && <TrustedLoginDialog enterprise={enterprise} onClose={() => setTrusted(false)} />}
    </>
  );
}

/** 30001 / 30002: the bureau wants a code sent to the taxpayer's phone. */
function SmsStep({
  enterprise,
  phoneMasked,
  onOutcome,
  onError,
}: {
  enterprise: EtaxEnterprise;
  phoneMasked: string;
  onOutcome: (r: HelperLoginData) => void;
  onError: (err: unknown) => void;
}) {
  const [code, setCode] = useState('');
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);

  const send = async () => {
    setSending(true);
    setError('');
    try {
      await helperCall(HELPER_PATH.etax, 'sendSms', { aeiId: enterprise.id });
      setLeft(SMS_RESEND_S);
      toast('success', '验证码已发送，请注意查收');
    } catch (err) {
      if (err instanceof HelperCallError && !err.message.includes(BUREAU_MSG.smsLoginExpired)) setError(err.message);
      else onError(err);
    } finally {
      setSending(false);
    }
  };

  const submit = async () => {
    if (!/^\d{6}$/.test(code)) {
      setError('请输入6位短信验证码');
      return;
    }
    setChecking(true);
    setError('');
    try {
      const r = await helperCall<HelperLoginData>(HELPER_PATH.etax, 'SmsLogin', { aeiId: enterprise.id, code });
      if (r && r.status === 0 && !r.mismatch && !r.msg.includes(BUREAU_MSG.smsLoginExpired)) setError(r.msg);
      else onOutcome(r);
    } catch (err) {
      if (err instanceof HelperCallError && !err.message.includes(BUREAU_MSG.smsLoginExpired)) setError(err.message);
      else onError(err);
    } finally {
      setChecking(false);
    }
  };

  return (
    <div className="dzy-etax-sms">
      <p>
        该企业登录需要短信验证，验证码将发送至办税人员手机 <b>{phoneMasked || '（税务局登记的手机）'}</b>。
      </p>
      <div className="dzy-etax-sms-row">
        <Input
          aria-label="短信验证码"
          placeholder="请输入6位验证码"
          maxLength={6}
          value={code}
          onChange={(ev) => setCode(ev.target.value.replace(/\D/g, ''))}
          onPressEnter={submit}
          status={error ? 'error' : ''}
        />
        <Button onClick={send} loading={sending} disabled={left > 0} style={{ width: 132, flex: 'none' }}>
          {left > 0 ? `${left}s后重新获取` : '获取验证码'}
        </Button>
      </div>
      <div className="dzy-etax-sms-error" role={error ? 'alert' : undefined}>
        {error}
      </div>
      <Button type="primary" block loading={checking} onClick={submit}>
        验证并登录
      </Button>
    </div>
  );
}
