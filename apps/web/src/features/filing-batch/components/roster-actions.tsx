import { FileDoneOutlined, TeamOutlined } from '@ant-design/icons';
import { FILING_BATCH_MSG, type FilingCell, type FilingTaxType, sbjtylUrl } from '@dzy/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useHasPerm } from '../../../components/auth';
import { toast } from '../../../lib/feedback';
import { FILING_KEYS } from '../../filing/api';
import { GrsdsWizard, wizardStored } from './grsds-wizard';
import { MultiTaxDialog } from './multi-tax-dialog';
import { type FollowedRun, RunBall } from './run-ball';
import '../filing-batch.css';

/** The run the roster follows across a reload (the multi-tax generation or a file run from the wizard). */
const RUN_KEY = 'dzy:filing-batch:run';
function readRun(): FollowedRun | null {
  try {
    const raw = window.localStorage.getItem(RUN_KEY);
    const v = raw ? (JSON.parse(raw) as FollowedRun) : null;
    return v && typeof v.redisKey === 'string' && typeof v.planId === 'number' ? v : null;
  } catch {
    return null;
  }
}
function writeRun(v: FollowedRun | null) {
  try {
    if (v) window.localStorage.setItem(RUN_KEY, JSON.stringify(v));
    else window.localStorage.removeItem(RUN_KEY);
  } catch {
    // storage disabled: the ball is not resumed after a reload
  }
}

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
  const qc = useQueryClient();
  const [choosing, setChoosing] = useState(false);
  const [wizard, setWizard] = useState(() => wizardStored());
  const [run, setRun] = useState<FollowedRun | null>(() => readRun());
  const follow = (r: FollowedRun | null) => {
    writeRun(r);
    setRun(r);
  };
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
          follow({ redisKey: r.redisKey, planId: r.planId, kind: 'generate' });
        }}
      />
      <GrsdsWizard open={wizard} onClose={() => setWizard(false)} onFiling={(r) => follow(r)} />
      <RunBall
        key={run?.redisKey}
        run={run}
        onClose={() => follow(null)}
        // A file run ends: the roster's cells and counts move (已申报).
        onDone={() => void qc.invalidateQueries({ queryKey: FILING_KEYS.all })}
      />
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
