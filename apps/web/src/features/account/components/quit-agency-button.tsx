import { ExportOutlined } from '@ant-design/icons';
import { personalQuitAgencyCall, quitCheckCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/feedback';
import { HOME_PATH } from '../../../lib/paths';
import { call } from '../../../lib/request';
import { SESSION_KEY, useSessionInfo } from '../../../lib/session';

/**
 * 退出代理机构 for a member who is not the administrator: the server says first whether they may
 * (quitCheck: quit setting, clients and director posts still held), then the user confirms.
 */
export function QuitAgencyButton() {
  const session = useSessionInfo();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (session.orgId === null || session.isAdmin === '1') return null;

  const quit = async () => {
    const check = await call(quitCheckCall, {}).catch(() => null);
    if (!check) return;
    if (!check.canQuit) {
      modal.warning({ title: '暂时无法退出', content: check.reason, okText: '知道了' });
      return;
    }
    modal.confirm({
      title: '退出代理机构',
      content: `确定退出「${session.orgName ?? ''}」吗？退出后将无法访问该机构的任何数据，如需再加入须重新邀请。`,
      okText: '确认退出',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await call(personalQuitAgencyCall, {});
        } catch {
          return;
        }
        toast('success', '您已退出该代理机构');
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_KEY[0] });
        await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
        navigate(HOME_PATH, { replace: true });
      },
    });
  };

  return (
    <Button size="small" type="link" danger icon={<ExportOutlined />} onClick={() => void quit()}>
      退出代理机构
    </Button>
  );
}
