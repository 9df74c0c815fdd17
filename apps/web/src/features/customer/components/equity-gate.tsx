import { EQUITY_MSG, equityCheckCall, equityDecision, muteEquityCall } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Checkbox } from 'antd';
import { useCallback } from 'react';
import { toast } from '../../../lib/feedback';
import { call } from '../../../lib/request';
import { CUSTOMER_KEYS, useAgencyEquity } from '../api';

/**
 * The benefit check before a feature (business.md §6) with the 权益提示 dialogs of §8: type 1 single
 * feature (status 2 reminder with 不再提醒, status 3 expired), type 2 bulk selection (none entitled, or
 * continue with the M that are), type 3 not in the plan. `run` calls `action` with the ids that may go on.
 */
export function useEquityGate() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const equity = useAgencyEquity();

  return useCallback(
    async (menuid: number, ids: number[], action: (ids: number[]) => Promise<void> | void) => {
      if (ids.length === 0) {
        toast('warning', '请选择企业');
        return;
      }
      let facts: Awaited<ReturnType<typeof call<typeof equityCheckCall>>>;
      try {
        facts = await call(equityCheckCall, { menuid, aeiIds: ids });
      } catch {
        return;
      }
      if (!facts) return;
      const d = equityDecision(facts, ids);
      if (d.error) {
        toast('warning', d.error);
        return;
      }
      const dialog = d.dialog;
      if (!dialog) {
        if (d.proceedIds) await action(d.proceedIds);
        return;
      }
      if (dialog.type === 1 && dialog.canMute && d.proceedIds) {
        const proceed = d.proceedIds;
        let mute = false;
        modal.warning({
          title: EQUITY_MSG.title,
          width: 420,
          content: (
            <div>
              <p style={{ margin: '4px 0 12px' }}>{dialog.content}</p>
              <Checkbox onChange={(e) => (mute = e.target.checked)}>不再提醒</Checkbox>
            </div>
          ),
          okText: '知道了',
          onOk: async () => {
            const agencyId = equity.data?.agency_id;
            if (mute && agencyId) {
              try {
                await call(muteEquityCall, { agency_id: agencyId, sfgxbzts: '1' });
                void queryClient.invalidateQueries({ queryKey: CUSTOMER_KEYS.equity });
              } catch {
                // Told by the request client; the action still goes on.
              }
            }
            await action(proceed);
          },
        });
        return;
      }
      const continueIds = dialog.continueIds;
      if (continueIds) {
        modal.confirm({
          title: EQUITY_MSG.title,
          width: 420,
          content: dialog.content,
          okText: '继续',
          cancelText: '取消',
          onOk: () => action(continueIds),
        });
        return;
      }
      modal.warning({ title: EQUITY_MSG.title, width: 420, content: dialog.content, okText: '知道了' });
    },
    [modal, queryClient, equity.data?.agency_id],
  );
}
