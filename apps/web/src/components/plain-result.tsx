import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import InfoCircleFilled from '@ant-design/icons-svg/es/asn/InfoCircleFilled';
import { PlainIcon } from './plain-icon';
import './plain.css';

const ICONS = { error: CloseCircleFilled, warning: ExclamationCircleFilled, info: InfoCircleFilled } as const;

/**
 * A full-page message with one action, drawn as antd's Result with a primary Button, without antd: the
 * guards and the route error page show it on the way to (or instead of) pages that may not have loaded antd.
 */
export function PlainResult({
  status,
  title,
  subTitle,
  action,
  onAction,
}: {
  status: keyof typeof ICONS;
  title: string;
  subTitle: string;
  action: string;
  onAction: () => void;
}) {
  return (
    <div className={`dzy-result dzy-result-${status}`}>
      <div className="dzy-result-icon">
        <PlainIcon icon={ICONS[status]} />
      </div>
      <h1 className="dzy-result-title">{title}</h1>
      <p className="dzy-result-subtitle">{subTitle}</p>
      <div className="dzy-result-extra">
        <button type="button" className="dzy-btn dzy-btn-primary" onClick={onAction}>
          {action}
        </button>
      </div>
    </div>
  );
}
