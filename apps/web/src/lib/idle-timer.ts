import { useEffect, useRef } from 'react';

/** Inactivity limit before the session is ended (foundation.md §9). */
export const IDLE_TIMEOUT_MS = 300_000;

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/** Calls `onIdle` once after `timeoutMs` without mouse, keyboard or touch activity. */
export function useIdleTimer(timeoutMs: number, onIdle: () => void): void {
  const onIdleRef = useRef(onIdle);
  onIdleRef.current = onIdle;

  useEffect(() => {
    let timer = 0;
    let lastReset = 0;
    const arm = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => onIdleRef.current(), timeoutMs);
    };
    const onActivity = () => {
      // Mouse moves fire constantly; re-arming at most once a second is plenty.
      const now = Date.now();
      if (now - lastReset < 1000) return;
      lastReset = now;
      arm();
    };
    arm();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [timeoutMs]);
}
