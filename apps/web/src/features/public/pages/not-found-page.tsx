import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../lib/document-title';
import '../public.css';

/** /404: the catch-all for unknown pages and pages the account may not open. */
export function NotFoundPage() {
  useDocumentTitle('页面不存在');
  const navigate = useNavigate();
  return (
    <div className="dzy-public-page dzy-center-page">
      <Result
        status="404"
        title="404"
        subTitle="抱歉，您访问的页面不存在，或当前账户没有访问该页面的权限。"
        extra={
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            返回首页
          </Button>
        }
      />
    </div>
  );
}
