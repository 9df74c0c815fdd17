import { FileDoneOutlined, TeamOutlined } from '@ant-design/icons';
import { FILING_BATCH_MSG, type FilingCell, type FilingTaxType, sbjtylUrl } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { followRun } from '../followed-run';
import { GrsdsWizard, wizardStored } from './grsds-wizard';
import { MultiTaxDialog } from './multi-tax-dialog';
import '../filing-batch.css';

/**
 * 批量申报 and 个税批量申报 on the 申报清册 (issue 14): the multi-tax dialog for the chosen clients (or all),
 * its progress ball with the link to the plan, and the income-tax wizard.
 */
export function RosterBatchActions({
  filingMonth,
  selected,
  onStarted,
}: {
  filingMonth: string;
  selected: number[];
  onStarted: () => void;
}) {
  const can = useHasPerm();
  const _qc = useQueryClient();
  const [choosing, setChoosing] = useState(false);
  const [wizard, setWizard] = useState(() => wizardStored());
  if (!can(['declare:filing:plan'])) return null;
  return (
    <>
      <Button icon={<FileDoneOutlined />} onClick={() => setChoosing(true)} data-testid="batch-file">
        批量申报{selected.length > 0 ? `（${selected.length}）` : ''}
      </Button>
      <Button icon={<TeamOutlined />} onClick={() => setWizard(true)} data-testid="grsds-batch">
        个税批量申报
      </Button>
      <MultiTaxDialog
        open={choosing}
        filingMonth={filingMonth}
        aeiIds={selected}
        onClose={() => setChoosing(false)}
        onStarted={(r) => {
          toast('success', FILING_BATCH_MSG.generateStarted);
          onStarted();
          followRun({ redisKey: r.redisKey, planId: r.planId, kind: 'generate' });
        }}
      />
      <GrsdsWizard open={wizard} onClose={() => setWizard(false)} onFiling={(r) => followRun(r)} />
    </>
  );
}

/** 回执 on a filed roster cell: the receipt PDF (sbjtyl) in a new tab. */
export function ReceiptLink({ aeiId, type, cell }: { aeiId: number; type: FilingTaxType; cell: FilingCell }) {
  if (!cell.pzxh || !cell.skssqq) return null;
  return (
    <a
      className="dzy-batch-receipt"
      href={sbjtylUrl({ aeiId, taxType: type, skssqq: cell.skssqq })}
      target="_blank"
      rel="noreferrer"
      onClick={(e) => e.stopPropagation()}
      data-testid="roster-receipt"
    >
      回执
    </a>
  );
}
