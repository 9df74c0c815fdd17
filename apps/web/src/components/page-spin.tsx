import './plain.css';

/** The loading spinner, drawn as antd's large Spin without antd (it shows before antd has loaded). */
export function Spinner() {
  return (
    <span className="dzy-spin" role="img" aria-label="加载中">
      <i />
      <i />
      <i />
      <i />
    </span>
  );
}

/** Placeholder while a page's code or data arrives. */
export function PageSpin({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className="dzy-spin-box" style={{ minHeight: fullScreen ? '100vh' : 320 }} aria-busy="true">
      <Spinner />
    </div>
  );
}
