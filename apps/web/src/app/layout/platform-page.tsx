import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { Lazy, lazyNamed } from '../lazy-page';

const Applications = lazyNamed(
  () => import('../../features/org/pages/platform-applications-page'),
  'PlatformApplicationsPage',
);
const Announcements = lazyNamed(() => import('../../features/message/pages/announcement-admin'), 'AnnouncementAdmin');

/**
 * The platform operator's page (/platform/applications): 入驻审核 from the organisation feature and
 * 系统公告 from the message feature, as tabs (the menu registry has one entry for the operator).
 */
export function PlatformPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'announcements' ? 'announcements' : 'applications';
  return (
    <Tabs
      className="dzy-platform-tabs"
      activeKey={tab}
      onChange={(key) => setParams(key === 'applications' ? {} : { tab: key }, { replace: true })}
      destroyOnHidden
      items={[
        { key: 'applications', label: '入驻审核', children: <Lazy page={Applications} /> },
        { key: 'announcements', label: '系统公告', children: <Lazy page={Announcements} /> },
      ]}
    />
  );
}
