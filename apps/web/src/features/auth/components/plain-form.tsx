import CloseCircleFilled from '@ant-design/icons-svg/es/asn/CloseCircleFilled';
import ExclamationCircleFilled from '@ant-design/icons-svg/es/asn/ExclamationCircleFilled';
import EyeInvisibleOutlined from '@ant-design/icons-svg/es/asn/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons-svg/es/asn/EyeOutlined';
import type { IconDefinition } from '@ant-design/icons-svg/es/types';
import { type InputHTMLAttributes, type ReactNode, useCallback, useId, useRef, useState } from 'react';
import { PlainIcon } from '../../../components/plain-icon';
import '../../../components/plain.css';

/*
 * The sign-in form's pieces, drawn as antd's large Form.Item, Input, Input.Password, Button, Checkbox and
 * Alert (auth.css), without antd: the sign-in page is the first page a visitor loads and antd would be
 * most of its code (docs/decisions-12-first-load.md). Behaviour as antd's: a field is checked on every
 * change and all of them on submit; an error shows under its field in red.
 */

/** A field's check: the message to show, or null when the value is fine. */
export type Check = (value: string) => string | null;

/** Values, errors and checks of a small form (antd Form's onChange validation and validateFields). */
export function usePlainForm<K extends string>(checks: Record<K, Check>) {
  const initial = Object.fromEntries(Object.keys(checks).map((k) => [k, ''])) as Record<K, string>;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const current = useRef(values);
  current.current = values;

  const setValue = useCallback(
    (name: K, value: string) => {
      setValues((v) => ({ ...v, [name]: value }));
      setErrors((e) => ({ ...e, [name]: checks[name](value) ?? undefined }));
    },
    [checks],
  );

  /** Checks the named fields (all when none are named), shows their errors, and says whether all passed. */
  const validate = useCallback(
    (names: K[] = Object.keys(checks) as K[]): boolean => {
      const found: Partial<Record<K, string>> = {};
      for (const name of names) found[name] = checks[name](current.current[name]) ?? undefined;
      setErrors((e) => ({ ...e, ...found }));
      return names.every((name) => !found[name]);
    },
    [checks],
  );

  return { values, errors, setValue, validate };
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'prefix' | 'type'> {
  value: string;
  onValue: (value: string) => void;
  icon: IconDefinition;
  error?: string | undefined;
  /** A clear button while there is a value (antd's allowClear). */
  allowClear?: boolean;
  /** A password field with antd's show/hide eye. */
  password?: boolean;
}

/** A large input with its prefix icon and, below it, the field's error. */
export function Field({ value, onValue, icon, error, allowClear, password, className, ...input }: FieldProps) {
  const errorId = useId();
  const [shown, setShown] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  const classes = ['dzy-input', error ? 'dzy-input-error' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className="dzy-field">
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a click on the frame focuses the input, as antd's affix wrapper does */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: the input itself takes the keyboard */}
      <span className={classes} onClick={() => ref.current?.focus()}>
        <span className="dzy-input-prefix">
          <PlainIcon icon={icon} />
        </span>
        <input
          ref={ref}
          {...input}
          type={password && !shown ? 'password' : 'text'}
          value={value}
          onChange={(e) => onValue(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {allowClear && (
          <button
            type="button"
            className="dzy-input-clear"
            tabIndex={-1}
            aria-label="清除"
            style={{ visibility: value ? 'visible' : 'hidden' }}
            onClick={() => {
              onValue('');
              ref.current?.focus();
            }}
          >
            <PlainIcon icon={CloseCircleFilled} />
          </button>
        )}
        {password && (
          <button
            type="button"
            className="dzy-input-eye"
            aria-label={shown ? '隐藏密码' : '显示密码'}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => setShown((s) => !s)}
          >
            <PlainIcon icon={shown ? EyeOutlined : EyeInvisibleOutlined} />
          </button>
        )}
      </span>
      {error && (
        <div id={errorId} className="dzy-field-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** antd's large button: primary (the submit) or default (获取验证码), with its loading state. */
export function PlainButton({
  children,
  primary = false,
  block = false,
  loading = false,
  disabled = false,
  type = 'button',
  onClick,
  className,
}: {
  children: ReactNode;
  primary?: boolean;
  block?: boolean;
  loading?: boolean;
  disabled?: boolean;
  type?: 'button' | 'submit';
  onClick?: () => void;
  className?: string;
}) {
  const classes = [
    'dzy-btn dzy-btn-lg',
    primary ? 'dzy-btn-primary' : '',
    block ? 'dzy-btn-block' : '',
    loading ? 'dzy-btn-loading' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      // biome-ignore lint/a11y/useButtonType: the type is the caller's, button or submit
      type={type}
      className={classes}
      disabled={disabled}
      aria-busy={loading || undefined}
      onClick={(e) => {
        // Loading ignores clicks (and a second submit), as antd's button does.
        if (loading) e.preventDefault();
        else onClick?.();
      }}
    >
      {loading && <span className="dzy-btn-spinner" aria-hidden="true" />}
      <span>{children}</span>
    </button>
  );
}

/** antd's Alert with its icon: the sign-in failure (error) or the notice after a sign-out (warning). */
export function PlainAlert({ type, children }: { type: 'error' | 'warning'; children: ReactNode }) {
  return (
    <div className={`dzy-alert dzy-alert-${type}`} role="alert">
      <PlainIcon icon={type === 'error' ? CloseCircleFilled : ExclamationCircleFilled} className="dzy-alert-icon" />
      <div className="dzy-alert-message">{children}</div>
    </div>
  );
}

/** antd's Checkbox: a native box (what a click, the keyboard and a screen reader use) drawn over. */
export function PlainCheckbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className={checked ? 'dzy-checkbox dzy-checkbox-checked' : 'dzy-checkbox'}>
      <span className="dzy-checkbox-box">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        <span className="dzy-checkbox-inner" />
      </span>
      <span className="dzy-checkbox-label">{children}</span>
    </label>
  );
}
