import { STORAGE_PREFIX } from './client-state';

/**
 * Browser-side caches with the spec's rules (foundation.md §3, §9): cached data (the user's region,
 * agency relation, organisation, agency list) is valid for one day; daily lists of ids marked done
 * today expire at local midnight. Everything lives under the product's storage prefix, so signing out
 * and 清除缓存 remove it.
 */
export const CACHE_VALID_MS = 24 * 3600_000;

const CACHE_PREFIX = `${STORAGE_PREFIX}cache:`;
const DONE_PREFIX = `${STORAGE_PREFIX}done:`;

interface Stamped<T> {
  value: T;
  savedAt: number;
}

function read<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the cache is an optimisation only.
  }
}

/** A cached value younger than one day, else null (and the stale entry is dropped). */
export function cacheGet<T>(key: string, now = Date.now()): T | null {
  const entry = read<Stamped<T>>(CACHE_PREFIX + key);
  if (!entry) return null;
  if (now - entry.savedAt >= CACHE_VALID_MS || entry.savedAt > now) {
    window.localStorage.removeItem(CACHE_PREFIX + key);
    return null;
  }
  return entry.value;
}

export function cacheSet<T>(key: string, value: T, now = Date.now()): void {
  write(CACHE_PREFIX + key, { value, savedAt: now } satisfies Stamped<T>);
}

export function cacheRemove(key: string): void {
  window.localStorage.removeItem(CACHE_PREFIX + key);
}

/** The local calendar day, YYYY-MM-DD (a day ends at local midnight). */
export function localDay(at = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** Ids marked done today in the named list; yesterday's list counts as empty. */
export function doneToday(list: string, at = new Date()): Set<string> {
  const entry = read<{ day: string; ids: string[] }>(DONE_PREFIX + list);
  if (!entry || entry.day !== localDay(at)) return new Set();
  return new Set(entry.ids);
}

export function markDoneToday(list: string, id: string | number, at = new Date()): void {
  const ids = doneToday(list, at);
  ids.add(String(id));
  write(DONE_PREFIX + list, { day: localDay(at), ids: [...ids] });
}

/** Drops expired entries (run when the shell starts). */
export function pruneLocalCache(now = new Date()): void {
  const today = localDay(now);
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith(CACHE_PREFIX)) cacheGet(key.slice(CACHE_PREFIX.length), now.getTime());
    else if (key.startsWith(DONE_PREFIX) && read<{ day: string }>(key)?.day !== today) {
      window.localStorage.removeItem(key);
    }
  }
}

/**
 * 清除缓存 in a web product: this product's local and session storage, and the Cache Storage of its
 * origin. `keep` names local-storage keys to leave (none by default). Returns how many entries went.
 */
export async function clearProductCaches(keep: readonly string[] = []): Promise<number> {
  let removed = 0;
  for (const storage of [window.localStorage, window.sessionStorage]) {
    for (const key of Object.keys(storage)) {
      if (keep.includes(key)) continue;
      if (key.startsWith(STORAGE_PREFIX) || key.startsWith('dzy-')) {
        storage.removeItem(key);
        removed += 1;
      }
    }
  }
  if ('caches' in window) {
    try {
      for (const name of await window.caches.keys()) {
        if (await window.caches.delete(name)) removed += 1;
      }
    } catch {
      // Cache Storage unavailable (insecure context): nothing there to clear.
    }
  }
  return removed;
}
