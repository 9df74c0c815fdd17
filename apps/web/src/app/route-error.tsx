import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PlainResult } from '../components/plain-result';

/**
 * Shown when a route fails to render, most often when a new version replaced the page's code. Drawn without
 * antd: it may show on the sign-in route, or when antd's own code is what could not be fetched.
 */
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
    <PlainResult
      status={chunkMissing ? 'info' : 'error'}
      title={title}
      subTitle={subTitle}
      action="刷新页面"
      onAction={() => window.location.reload()}
    />
  );
}
