import { Link } from 'react-router';
import { PlainCheckbox } from './plain-form';

/** 我已阅读并同意《用户协议》和《隐私政策》, with the reminder shown when it is missing. */
export function Consent({
  checked,
  onChange,
  showError,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  showError: boolean;
}) {
  return (
    <div className="dzy-auth-consent">
      <PlainCheckbox checked={checked} onChange={onChange}>
        我已阅读并同意
        <Link to="/agreement" target="_blank">
          《用户协议》
        </Link>
        和
        <Link to="/privacy" target="_blank">
          《隐私政策》
        </Link>
      </PlainCheckbox>
      {showError && !checked && <div className="dzy-auth-consent-error">请先阅读并勾选同意用户协议和隐私政策</div>}
    </div>
  );
}
