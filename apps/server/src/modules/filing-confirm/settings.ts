import {
  CONFIRM_DAYS_DEFAULT,
  CONFIRM_THRESHOLD_DEFAULT_FEN,
  type ConfirmSetting,
  DIFF_PERCENT_DEFAULT,
} from '@dzy/shared';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { agencyFilingSettings } from '../../db/schema/index.js';

/** The agency's 客户确认 settings, money in fen; the defaults when the agency saved none. */
export interface ConfirmSettings {
  confirmThreshold: number;
  confirmRequired: boolean;
  confirmDays: number;
  diffPercent: number;
}

export async function confirmSettingsOf(tx: Queryable, agencyId: number): Promise<ConfirmSettings> {
  const [row] = await tx
    .select({
      confirmThreshold: agencyFilingSettings.confirmThreshold,
      confirmRequired: agencyFilingSettings.confirmRequired,
      confirmDays: agencyFilingSettings.confirmDays,
      diffPercent: agencyFilingSettings.diffPercent,
    })
    .from(agencyFilingSettings)
    .where(eq(agencyFilingSettings.agencyId, agencyId));
  return (
    row ?? {
      confirmThreshold: CONFIRM_THRESHOLD_DEFAULT_FEN,
      confirmRequired: false,
      confirmDays: CONFIRM_DAYS_DEFAULT,
      diffPercent: DIFF_PERCENT_DEFAULT,
    }
  );
}

export const fenToYuan = (fen: number) => (fen / 100).toFixed(2);

/** The settings as the wire carries them (threshold in yuan text). */
export const confirmSettingWire = (s: ConfirmSettings): ConfirmSetting => ({
  ...s,
  confirmThreshold: fenToYuan(s.confirmThreshold),
});
