import { useSyncExternalStore } from 'react';
import type { RunKind } from './api';

/**
 * The batch run the user follows (a plan's generation, filing or payment), shown as the progress ball
 * on every page of the shell, not only the page that started it: "后台运行" lets the user go on with
 * other work. Kept in localStorage so a reload (or another tab) finds it again. No antd here: the shell
 * imports this module, the ball itself loads only when a run is followed.
 */
export interface FollowedRun {
  redisKey: string;
  planId: number;
  kind: RunKind;
}

const KEY = 'dzy:filing-batch:run';
const listeners = new Set<() => void>();
let current: FollowedRun | null = read();

function read(): FollowedRun | null {
  try {
    const raw = window.localStorage.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as FollowedRun) : null;
    return v && typeof v.redisKey === 'string' && typeof v.planId === 'number' ? v : null;
  } catch {
    return null;
  }
}

/** Follows a run (null: none); the ball appears, or goes. */
export function followRun(run: FollowedRun | null) {
  try {
    if (run) window.localStorage.setItem(KEY, JSON.stringify(run));
    else window.localStorage.removeItem(KEY);
  } catch {
    // storage disabled: the ball is not found again after a reload
  }
  current = run;
  for (const l of listeners) l();
}

function subscribe(l: () => void) {
  listeners.add(l);
  // Another tab followed or closed a run.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    current = read();
    l();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(l);
    window.removeEventListener('storage', onStorage);
  };
}

export const useFollowedRun = () => useSyncExternalStore(subscribe, () => current);
