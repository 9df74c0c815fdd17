import { HELPER_PATH } from '@dzy/shared';
import { Button, Modal, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { toast } from '../../lib/feedback';
import { HelperCallError, HelperUnavailable, helperCall } from '../../lib/helper';
import type { EtaxEnterprise } from './etax-login-dialog';

/**
 * The trusted-login dialog (tax-bureau.md §2): the bureau's 可信登录 page in a frame. It tells the
 * product through a browser message; 登录成功 from that page's origin is shown as 登录成功.
 */
export function TrustedLoginDialog({ enterprise, onClose }: { enterprise: EtaxEnterprise; onClose: () => void }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);

  useEffect(() => {
    let live = true;
    helperCall<{ url: string }>(HELPER_PATH.etax, 'trusted_login', { qysh: enterprise.qysh, qymc: enterprise.qymc })
      .then((d) => live && setUrl(d.url))
      .catch((err: unknown) => {
        if (!live) return;
        setError(
          err instanceof HelperCallError || err instanceof HelperUnavailable ? err.message : '可信登录页面打开失败',
        );
      });
    return () => {
      live = false;
    };
  }, [enterprise]);

  useEffect(() => {
    if (!url) return;
    const from = new URL(url).origin;
    const onMessage = (ev: MessageEvent) => {
      if (ev.origin !== from) return;
      const text = typeof ev.data === 'string' ? ev.data : JSON.stringify(ev.data ?? '');
      if (text.includes('登录成功')) {
        setDone(true);
        toast('success', '登录成功');
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [url]);

  return (
    <Modal
      open
      title={`可信登录 · ${enterprise.qymc}`}
      width={560}
      centered
      maskClosable={false}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      {done ? (
        <Result status="success" title="登录成功" extra={<Button onClick={onClose}>关闭</Button>} />
      ) : error ? (
        <Result status="warning" title={error} extra={<Button onClick={onClose}>关闭</Button>} />
      ) : url ? (
        <iframe className="dzy-trusted-frame" title="可信登录" src={url} />
      ) : (
        <div className="dzy-etax-wait">
          <Spin />
        </div>
      )}
    </Modal>
  );
}
