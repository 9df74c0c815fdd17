import AuditOutlined from '@ant-design/icons-svg/es/asn/AuditOutlined';
import CloudServerOutlined from '@ant-design/icons-svg/es/asn/CloudServerOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import TeamOutlined from '@ant-design/icons-svg/es/asn/TeamOutlined';
import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { PlainIcon } from '../../../components/plain-icon';
import { brandCssVars } from '../../../lib/antd-theme';
import type { LoginConfig } from '../../brand/login-brand';
import '../auth.css';

const FEATURES = [
  {
    icon: <PlainIcon icon={TeamOutlined} />,
    title: '客户集中管理',
    text: '客户档案、合同与收费一处维护，分配到人，交接不丢单',
  },
  {
    icon: <PlainIcon icon={AuditOutlined} />,
    title: '批量申报与巡检',
    text: '一键批量申报、漏报检查与风险巡检，征期不再熬夜',
  },
  {
    icon: <PlainIcon icon={CloudServerOutlined} />,
    title: '团队协同办公',
    text: '工单派发、进度跟踪与消息提醒，管理者随时掌握全局',
  },
  {
    icon: <PlainIcon icon={SafetyCertificateOutlined} />,
    title: '数据安全可靠',
    text: '客户凭证加密存储，按机构隔离，操作全程留痕',
  },
];

/** Sign-in pages: the brand panel on the left, the form card on the right (no antd: the sign-in page has none). */
export function AuthLayout({ children, config }: { children: ReactNode; config?: LoginConfig | null }) {
  const year = new Date().getFullYear();
  // A provider's sign-in address (/login/{fwsid}): its logo, name, colour and hotline (features/brand).
  const brand = config?.brand ?? null;
  const logo = brand ? (
    <span className="dzy-auth-provider">
      {brand.logoUrl ? <img src={brand.logoUrl} alt="" /> : null}
      <span>{brand.name}</span>
    </span>
  ) : null;
  return (
    <div className="dzy-public-page dzy-auth" style={brandCssVars(brand?.primaryColor) as CSSProperties}>
      <aside className="dzy-auth-brand" style={brand ? { background: brand.primaryColor } : undefined}>
        {logo ?? <BrandLogo size={40} inverted />}
        <div className="dzy-auth-brand-body">
          <h1 className="dzy-auth-tagline">{brand?.loginTitle || '专为代账机构打造的一站式业务平台'}</h1>
          <p className="dzy-auth-lead">客户、合同、记账、申报与工单在同一平台协同完成，让每一位会计服务更多客户。</p>
          <ul className="dzy-auth-features">
            {FEATURES.map((f) => (
              <li key={f.title}>
                <span className="dzy-auth-feature-icon">{f.icon}</span>
                <span>
                  <strong>{f.title}</strong>
                  <span>{f.text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div className="dzy-auth-brand-foot">
          © {year} {brand ? `${brand.name} · 代账云` : '代账云'} · 保留所有权利
        </div>
      </aside>
      <main className="dzy-auth-main">
        <div className="dzy-auth-mobile-logo">{logo ?? <BrandLogo size={36} />}</div>
        <div className="dzy-auth-card">{children}</div>
        <footer className="dzy-auth-links">
          <Link to="/agreement">用户协议</Link>
          <span aria-hidden="true">|</span>
          <Link to="/privacy">隐私政策</Link>
          <span aria-hidden="true">|</span>
          <span>客服热线 {config?.hotline || '400-800-2026'}</span>
        </footer>
      </main>
    </div>
  );
}
