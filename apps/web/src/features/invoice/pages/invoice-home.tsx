import { XXFP_PATH } from '@dzy/shared';
import { Navigate } from 'react-router';

/** /moreModuleCloudInvoice: the module opens on 销项发票 (which checks the user's menu as any page). */
export function InvoiceHome() {
  return <Navigate to={XXFP_PATH} replace />;
}
