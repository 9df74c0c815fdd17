import { Spin } from 'antd';

/** Placeholder while a page's code or data arrives. */
export function PageSpin({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: fullScreen ? '100vh' : 320,
      }}
    >
      <Spin size="large" />
    </div>
  );
}
