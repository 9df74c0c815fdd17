import { WorkOrderList } from '../pages/workorder-page';

/** A client's work orders in its drawer (客户详情 → 工单): the same list, filtered by the client. */
export function ClientOrders({ enterprise }: { enterprise: { id: number; qymc: string } }) {
  return <WorkOrderList enterprise={enterprise} compact />;
}
