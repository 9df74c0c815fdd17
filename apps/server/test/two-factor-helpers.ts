import { vi } from 'vitest';
import { base32Decode, hotp, stepAt, TOTP_STEP_SECONDS } from '../src/lib/totp.js';
import type { TestApp } from './harness.js';

/**
 * The clock of a two-factor test file: Date is faked but keeps running with real time, so the file can jump
 * to the authenticator's next 30-second step instead of waiting for it (issue 27: a deterministic clock, not
 * a wait). The server runs in this process (app.inject) and reads the same Date. Timers stay real.
 */
export function useStepClock(): void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
}

/**
 * A code the server has not accepted yet: the step after the last one it accepted. When that step is not
 * within the ±1 skew of now (a user would wait for the next code, up to 30 s), the clock moves to it.
 */
export async function freshCode(t: TestApp, userId: number, secret: string): Promise<string> {
  const [row] = await t.ownerQuery<{ last_step: number | null }>(
    'select last_step from user_two_factor where user_id = $1',
    [userId],
  );
  const next = (row?.last_step ?? stepAt(Date.now()) - 1) + 1;
  // One second into the step before `next`: `next` is then one step ahead, within the skew.
  if (next > stepAt(Date.now()) + 1) vi.setSystemTime((next - 1) * TOTP_STEP_SECONDS * 1000 + 1_000);
  return hotp(base32Decode(secret), Math.max(next, stepAt(Date.now())));
}
