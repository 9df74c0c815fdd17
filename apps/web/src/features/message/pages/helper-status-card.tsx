import { CheckCircleFilled, ExclamationCircleFilled, LoadingOutlined, ReloadOutlined } from '@ant-design/icons';
import { HELPER_MSG } from '@dzy/shared';
import { Button, Card, Space, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type HelperFound, type HelperProblem, helperState, startHelper } from '../../../lib/helper';

type State = { kind: 'checking' } | { kind: 'done'; problem: HelperProblem | null; found: HelperFound | null };

/** Live check of the local helper on this PC: found on port N with version V, or why not. */
export function HelperStatusCard() {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [starting, setStarting] = useState(0);

  const check = useCallback(async () => {
    setState({ kind: 'checking' });
    const r = await helperState();
    setState({ kind: 'done', ...r });
  }, []);

  useEffect(() => {
    void check();
  }, [check]);

  const start = async () => {
    setStarting(1);
    try {
      await startHelper(setStarting);
    } catch {
      // the check below says it is still not running
    }
    setStarting(0);
    await check();
  };

  let icon = <LoadingOutlined style={{ color: '#1677ff' }} />;
  let title = '正在检测本机的365基础服务…';
  let detail = '';
  if (state.kind === 'done') {
    const { problem, found } = state;
    if (problem === null && found) {
      icon = <CheckCircleFilled style={{ color: '#52c41a' }} />;
      title = '365基础服务运行正常';
      detail = `已在本机端口 ${found.port} 检测到，版本 ${found.reply.version}`;
    } else {
      icon = <ExclamationCircleFilled style={{ color: problem === 'notRunning' ? '#faad14' : '#ff4d4f' }} />;
      title = problem === 'notRunning' ? '未检测到365基础服务（未运行）' : HELPER_MSG[problem ?? 'notRunning'];
      detail =
        problem === 'notRunning'
          ? '请按下方步骤安装并启动；已安装时可点击「已安装，去启动」。'
          : found
            ? `本机端口 ${found.port}，版本 ${found.reply.version}`
            : '';
    }
  }

  return (
    <Card variant="borderless" className="dzy-download-card dzy-helper-status" style={{ marginBottom: 16 }}>
      <div className="dzy-helper-status-row" data-testid="helper-status">
        <span className="dzy-helper-status-icon">{icon}</span>
        <div className="dzy-helper-status-text">
          <Typography.Text strong>{title}</Typography.Text>
          {detail && <Typography.Text type="secondary">{detail}</Typography.Text>}
          {starting > 0 && <Typography.Text type="secondary">正在启动（{starting}/10）…</Typography.Text>}
        </div>
        <Space>
          {state.kind === 'done' && state.problem === 'notRunning' && (
            <Button onClick={start} loading={starting > 0}>
              已安装，去启动
            </Button>
          )}
          <Button icon={<ReloadOutlined />} onClick={check} disabled={state.kind === 'checking' || starting > 0}>
            重新检测
          </Button>
        </Space>
      </div>
    </Card>
  );
}
