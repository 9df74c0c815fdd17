import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Link, useNavigate } from 'react-router';
import { BrandLogo } from '../../../components/brand-logo';
import { useDocumentTitle } from '../../../lib/document-title';
import '../public.css';

export interface LegalSection {
  title: string;
  /** Each clause is numbered "<section>.<clause>". */
  clauses: string[];
}

export interface LegalText {
  title: string;
  version: string;
  effective: string;
  intro: string;
  sections: LegalSection[];
}

/** A numbered legal text (用户协议, 隐私政策) with a table of contents. */
export function LegalDocument({ doc }: { doc: LegalText }) {
  useDocumentTitle(doc.title);
  const navigate = useNavigate();
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/login'));
  return (
    <div className="dzy-public-page dzy-doc-page">
      <header className="dzy-doc-top">
        <Link to="/login" aria-label="代账云首页">
          <BrandLogo size={28} />
        </Link>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={back}>
          返回
        </Button>
      </header>
      <div className="dzy-doc-body">
        <nav className="dzy-doc-toc" aria-label="目录">
          <div className="dzy-doc-toc-title">目录</div>
          {doc.sections.map((s, i) => (
            <button
              key={s.title}
              type="button"
              onClick={() => document.getElementById(`sec-${i + 1}`)?.scrollIntoView({ behavior: 'smooth' })}
            >
              {i + 1}. {s.title}
            </button>
          ))}
        </nav>
        <article className="dzy-doc-article">
          <h1>{doc.title}</h1>
          <div className="dzy-doc-meta">
            版本：{doc.version}　　生效日期：{doc.effective}
          </div>
          <p className="dzy-doc-intro">{doc.intro}</p>
          {doc.sections.map((s, i) => (
            <section key={s.title}>
              <h2 id={`sec-${i + 1}`}>
                {i + 1}. {s.title}
              </h2>
              {s.clauses.map((text, j) => (
                <p key={text}>
                  <span className="dzy-doc-clause-no">
                    {i + 1}.{j + 1}
                  </span>
                  {text}
                </p>
              ))}
            </section>
          ))}
        </article>
      </div>
    </div>
  );
}
