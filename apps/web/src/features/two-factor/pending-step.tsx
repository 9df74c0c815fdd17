import type { SessionInfo } from '@dzy/shared/wire';
import { lazy, Suspense } from 'react';
import { setSignedIn } from '../../lib/session';

/** What the login answers when a second step is due (two-factor.ts twoFactorPendingSchema). */
export type PendingStep = { ticket: string; enrol: boolean };

/** The pending second step in a login reply, or null. */
export function pendingOf(data: unknown): PendingStep | null {
  if (data && typeof data === 'object' && 'twoFactor' in data) {
    const p = (data as { twoFactor: PendingStep }).twoFactor;
    if (p && typeof p.ticket === 'string') return p;
  }
  return null;
}

// Loaded only when a second step is due: the sign-in page itself stays free of antd and zod.
const SecondStep = lazy(() => import('./second-step'));

/** The second step in place of the sign-in form; signs in when it is passed. */
export function PendingSecondStep({ pending, onCancel }: { pending: PendingStep; onCancel: () => void }) {
  return (
    <Suspense fallback={<div className="dzy-auth-note">正在加载两步验证…</div>}>
      <SecondStep pending={pending} onSignedIn={(info: SessionInfo) => setSignedIn(info)} onCancel={onCancel} />
    </Suspense>
  );
}
