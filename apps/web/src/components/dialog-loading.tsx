import { Spinner } from './page-spin';
import './dialog-loading.css';

/**
 * Shown while a dialog or drawer opened by the user loads its code (React.lazy, first opening only): a
 * mask like the dialog's with the loading spinner, so the click visibly did something (issue 30 point 5).
 */
export function DialogLoading() {
  return (
    <div className="dzy-dialog-loading" role="status" aria-live="polite" aria-busy="true">
      <div className="dzy-dialog-loading-box">
        <Spinner />
        <span>正在加载…</span>
      </div>
    </div>
  );
}
