import { LegalDocument } from '../components/legal-document';
import { PRIVACY } from '../content/privacy';

/** /privacy: 隐私政策. */
export function PrivacyPage() {
  return <LegalDocument doc={PRIVACY} />;
}
