import { type ItemState, type PayState, type PlanItem, sbjtylUrl } from '@dzy/shared';

// The calls and constants of filing in batch live in packages/shared/src/filing-batch.ts; this file adds
// the web's keys, colours and links.
export {
  CONFIRM_STATE_NAMES,
  EVIDENCE_FILES,
  FILING_BATCH_MSG as BATCH_MSG,
  FILING_RUN_POLL_MS as BATCH_POLL_MS,
  FILING_RUN_PUSH_TYPE as RUN_PUSH_TYPE,
  type FilingPlan,
  type FilingRunRate as RunRate,
  ITEM_SOURCE_NAMES as SOURCE_NAMES,
  ITEM_STATE_NAMES,
  PAY_STATE_NAMES,
  type PlanItem,
  planItemsCall,
  RUN_KIND_NAMES,
  type RunKind,
  runRateCall,
  type SaveSbqcReply as PlanCreateReply,
  saveSbqcCall as planCreateCall,
} from '@dzy/shared';

/** Query keys of the feature; all start with 'filing-batch'. */
export const BATCH_KEYS = {
  all: ['filing-batch'] as const,
  rate: ['filing-batch', 'rate'] as const,
  plans: ['filing-batch', 'plans'] as const,
  items: ['filing-batch', 'items'] as const,
  report: ['filing-batch', 'report'] as const,
};

export const ITEM_STATE_COLORS: Readonly<Record<ItemState, string>> = {
  pending: 'processing',
  planned: 'blue',
  needsInput: 'warning',
  planFailed: 'error',
  submitting: 'processing',
  filed: 'success',
  rejected: 'error',
  dropped: 'default',
};

export const PAY_STATE_COLORS: Readonly<Record<PayState, string>> = {
  none: 'default',
  paying: 'processing',
  paid: 'success',
  refused: 'error',
  nothing: 'default',
};

export const CONFIRM_STATE_COLORS = {
  none: 'default',
  sent: 'processing',
  confirmed: 'success',
  disputed: 'error',
} as const;

/** The GET-able receipt preview (sbjtyl) of a filed return, opened in a new tab (issue 14 point 5). */
export const sbjtylHref = sbjtylUrl;

export type { PlanItem as Item };
