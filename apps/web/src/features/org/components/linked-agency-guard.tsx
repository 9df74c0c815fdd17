import { LINKED_AGENCY_MSG, needsLinkedAgency } from '@dzy/shared';
import { Button, Card, Result } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../../lib/feedback';
import { HOME_PATH } from '../../../lib/paths';
import { useSessionInfo } from '../../../lib/session';

/**
 * Wraps the /declare and /account pages: a factory user whose factory is not bound to an agency is
 * refused with 请先关联代理所 (foundation.md §6).
 */
export function LinkedAgencyGuard({ children }: { children: ReactNode }) {
  const session = useSessionInfo();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const refused = needsLinkedAgency(session, pathname);
  useEffect(() => {
    if (refused) toast('warning', LINKED_AGENCY_MSG);
  }, [refused]);
  if (!refused) return children;
  return (
    <Card variant="borderless">
      <Result
        status="warning"
        title={LINKED_AGENCY_MSG}
        subTitle="会计工厂关联代理机构后，才能使用账务与申报功能。请联系合作的代理机构完成关联。"
        extra={
          <Button type="primary" onClick={() => navigate(HOME_PATH)}>
            返回门户
          </Button>
        }
      />
    </Card>
  );
}
