import { RetweetOutlined } from '@ant-design/icons';
import { identitySwitchLabel } from '@dzy/shared';
import { Button, Tooltip } from 'antd';
import { toast } from '../../../lib/feedback';
import { useSessionInfo } from '../../../lib/session';
import { useJudgeSwitch } from '../api';
import { useSwitchOrg } from '../use-switch-org';

/**
 * 代理机构端 / 会计工厂端 (foundation.md §2, §6): shown only when the server says so (always in a kd
 * agency); switches to the organisation of the other kind.
 */
export function IdentitySwitch() {
  const session = useSessionInfo();
  const judge = useJudgeSwitch(session.orgId);
  const { switchTo, switchingTo } = useSwitchOrg();
  const target = judge.data;
  if (!target?.show) return null;
  const label = identitySwitchLabel(session.orgType);

  const onClick = () => {
    if (target.targetOrgId === null) {
      toast('info', '您还没有加入会计工厂，请联系会计工厂管理员邀请您加入');
      return;
    }
    void switchTo(target.targetOrgId);
  };

  return (
    <Tooltip title={target.targetName ? `切换到${target.targetName}` : `切换到${label}`} placement="bottom">
      <Button size="small" icon={<RetweetOutlined />} loading={switchingTo !== null} onClick={onClick}>
        {label}
      </Button>
    </Tooltip>
  );
}
