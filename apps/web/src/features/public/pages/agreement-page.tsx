import { LegalDocument } from '../components/legal-document';
import { AGREEMENT } from '../content/agreement';

/** /agreement: 用户服务协议. */
export function AgreementPage() {
  return <LegalDocument doc={AGREEMENT} />;
}
