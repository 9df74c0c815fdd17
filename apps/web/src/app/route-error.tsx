import { Button, Result } from 'antd';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a route fails to render, most often when a new version replaced the page's code. */
export function RouteError() {
  const error = useRouteError();
  const chunkMissing =
    error instanceof Error && /dynamically imported module|Importing a module script failed|chunk/i.test(error.message);
  const title = chunkMissing
    ? '系统已更新'
    : isRouteErrorResponse(error)
      ? `页面出错（${error.status}）`
      : '页面出错了';
  const subTitle = chunkMissing
    ? '系统已发布新版本，请刷新页面后继续使用。'
    : '页面遇到了意外问题，请刷新后重试；如果问题持续出现，请联系客服。';
  return (
    <Result
      status={chunkMissing ? 'info' : 'error'}
      title={title}
      subTitle={subTitle}
      style={{ paddingTop: '18vh' }}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          刷新页面
        </Button>
      }
    />
  );
}
