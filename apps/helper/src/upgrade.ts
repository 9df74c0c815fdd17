import { createHash } from 'node:crypto';
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { HELPER_DOWNLOAD_PREFIX, type HelperBuild, helperVersionCall, versionBelow } from '@dzy/shared';
import type { z } from 'zod';

/**
 * The helper's upgrade path (issue 18 point 3): it asks the product it serves for the latest version and
 * the oldest accepted (helper/version). Older than the oldest: its probes answer 900 and the page shows
 * 立即更新. Older than the latest and installed as a program: it downloads its build from the product,
 * checks the sha256 the product names, replaces its own file (probes answer 201 meanwhile) and restarts.
 */
export type ProductVersion = z.output<(typeof helperVersionCall)['data']>;

/** What this running copy is, to pick the build that replaces it. */
export interface SelfInstall {
  /** The file to replace: the single executable, or the .cjs bundle. */
  path: string;
  kind: 'sea' | 'bundle';
  platform: NodeJS.Platform;
}

const TIMEOUT_MS = 15_000;
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;

/** helper/version of the first product origin that answers, or null. */
export async function productVersion(
  origins: readonly string[],
): Promise<{ origin: string; v: ProductVersion } | null> {
  for (const origin of origins) {
    try {
      const res = await fetch(`${origin}/api/${helperVersionCall.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const reply = (await res.json()) as { code?: number; data?: unknown };
      const parsed = helperVersionCall.data.safeParse(reply.data);
      if (reply.code === 200 && parsed.success) return { origin, v: parsed.data };
    } catch {
      // next origin
    }
  }
  return null;
}

/** The build that replaces this copy: the Linux single executable, or the bundle (any system with Node). */
export function buildFor(self: SelfInstall, builds: readonly HelperBuild[]): HelperBuild | undefined {
  if (self.kind === 'sea') return builds.find((b) => b.kind === 'sea' && b.platform === self.platform);
  return builds.find((b) => b.kind === 'bundle');
}

export type UpgradeOutcome =
  | { kind: 'current' }
  | { kind: 'upgraded'; version: string }
  | { kind: 'failed'; msg: string };

/** Whether this version must upgrade (older than the latest offered) and can (a build for it exists). */
export function upgradeTarget(version: string, v: ProductVersion, self: SelfInstall | null): HelperBuild | null {
  if (!self || !versionBelow(version, v.version)) return null;
  return buildFor(self, v.builds) ?? null;
}

/** Downloads the build, checks its sha256 and size, and only then puts it in place of `target`. */
export async function downloadVerified(origin: string, build: HelperBuild, target: string): Promise<UpgradeOutcome> {
  let buf: Buffer;
  try {
    const res = await fetch(`${origin}${HELPER_DOWNLOAD_PREFIX}${encodeURIComponent(build.file)}`, {
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
    if (!res.ok) return { kind: 'failed', msg: `下载新版本失败（HTTP ${res.status}）` };
    buf = Buffer.from(await res.arrayBuffer());
  } catch {
    return { kind: 'failed', msg: '下载新版本失败（网络错误）' };
  }
  const got = createHash('sha256').update(buf).digest('hex');
  if (got !== build.sha256 || buf.length !== build.size) {
    return { kind: 'failed', msg: `新版本校验失败（sha256 ${got} 与产品公布的 ${build.sha256} 不符），未替换` };
  }
  const tmp = `${target}.download`;
  try {
    writeFileSync(tmp, buf, { mode: 0o755 });
    chmodSync(tmp, 0o755);
    // A running file may be renamed over on Linux; the bundle is read once at start on any system.
    renameSync(tmp, target);
  } catch {
    rmSync(tmp, { force: true });
    return { kind: 'failed', msg: '写入新版本失败（没有权限？）' };
  }
  return { kind: 'upgraded', version: '' };
}
