import { ExclamationCircleFilled, InfoCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { HELPER_MSG, HELPER_TIMING } from '@dzy/shared';
import { Button, Modal, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { downloadLatestHelper, type HelperProblem, startHelper } from '../lib/helper';
import './etax-login/etax-login.css';

const DOWNLOAD_PATH = '/nested/aboutDownload';

/**
 * The service dialogs of tax-bureau.md §8: 365基础服务未正常启动 (已安装，去启动 / 未安装，去下载),
 * 基础服务版本较旧 (立即更新), 365基础服务正在升级, 基础服务不支持该系统. `onReady` runs once a started
 * helper answers, so the action that needed it can go on.
 */
export function HelperProblemDialog({
  problem,
  onClose,
  onReady,
}: {
  problem: HelperProblem | null;
  onClose: () => void;
  onReady?: () => void;
}) {
  const navigate = useNavigate();
  const [starting, setStarting] = useState(0);
  const [startFailed, setStartFailed] = useState(false);
  /** Found after 去启动: the dialog closes first, and the action goes on once it is gone. */
  const [leaving, setLeaving] = useState(false);
  const [updating, setUpdating] = useState(false);

  const close = () => {
    setStarting(0);
    setStartFailed(false);
    onClose();
  };
  const toDownloads = () => {
    close();
    navigate(DOWNLOAD_PATH);
  };
  /** 立即更新: the browser downloads the new build from the product; the downloads page shows how to install it. */
  const update = async () => {
    setUpdating(true);
    await downloadLatestHelper();
    setUpdating(false);
    toDownloads();
  };
  const start = async () => {
    setStartFailed(false);
    setStarting(1);
    try {
      await startHelper((n) => setStarting(n));
      setStarting(0);
      setLeaving(true);
    } catch {
      setStarting(0);
      setStartFailed(true);
    }
  };

  const footer =
    problem === 'notRunning' ? (
      <Space>
        <Button onClick={toDownloads} disabled={starting > 0}>
          未安装，去下载
        </Button>
        <Button type="primary" onClick={start} loading={starting > 0}>
          已安装，去启动
        </Button>
      </Space>
    ) : problem === 'tooOld' ? (
      <Button type="primary" onClick={update} loading={updating}>
        立即更新
      </Button>
    ) : (
      <Button type="primary" onClick={close}>
        知道了
      </Button>
    );

  return (
    <Modal
      open={problem !== null && !leaving}
      afterClose={() => {
        if (!leaving) return;
        setLeaving(false);
        onReady?.();
      }}
      title="系统提示"
      width={440}
      centered
      onCancel={close}
      maskClosable={false}
      footer={footer}
      destroyOnHidden
    >
      {problem && (
        <div className="dzy-helper-problem" role="alert">
          {problem === 'upgrading' || problem === 'unsupported' ? (
            <InfoCircleFilled style={{ color: '#1677ff' }} />
          ) : (
            <ExclamationCircleFilled style={{ color: '#faad14' }} />
          )}
          <div>
            <div>{HELPER_MSG[problem]}</div>
            {starting > 0 && (
              <div className="dzy-helper-problem-sub">
                <LoadingOutlined /> 正在启动365基础服务（{starting}/{HELPER_TIMING.startRetries}）…
              </div>
            )}
            {startFailed && <div className="dzy-helper-problem-sub is-error">{HELPER_MSG.startFailed}</div>}
          </div>
        </div>
      )}
    </Modal>
  );
}
