import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HELPER_PORTS, HELPER_SCHEME, HELPER_VERSION, httpBureauClient } from '@dzy/shared';
import { startHelper } from './helper.server.js';
import type { SelfInstall } from './upgrade.js';

/**
 * 365基础服务 on this PC: `npm run helper` from the sources, or the installed program (`npm run
 * helper:dist` builds it; the install scripts register dzyhelper:// so 已安装，去启动 starts it).
 * --origin / DZY_ORIGIN: product origins allowed to call it (comma-separated);
 * --port / DZY_HELPER_PORT: a fixed port (default: the first free of the ports the page probes);
 * --bureau / TAX_BUREAU_URL: the e-tax bureau (default the simulator at http://127.0.0.1:8090);
 * DZY_HELPER_TOKEN: the body token (default '123').
 * Installed, it reads config.json beside itself (written by the install script) for origins and bureau.
 */
const UPGRADE_CHECK_MS = 30 * 60_000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** How this copy runs: a single executable (SEA), the .cjs bundle, or the sources (no self-upgrade). */
function selfInstall(): SelfInstall | null {
  let sea = false;
  try {
    // node:sea exists from Node 20.12; isSea() tells the injected executable apart from plain node.
    sea = (process.getBuiltinModule?.('node:sea') as { isSea(): boolean } | undefined)?.isSea() ?? false;
  } catch {
    sea = false;
  }
  if (sea) return { path: process.execPath, kind: 'sea', platform: process.platform };
  const script = process.argv[1] ? resolve(process.argv[1]) : '';
  if (script.endsWith('.cjs')) return { path: script, kind: 'bundle', platform: process.platform };
  return null;
}

function installedConfig(self: SelfInstall | null): { origins?: string[]; bureauUrl?: string } {
  if (!self) return {};
  const file = join(dirname(self.path), 'config.json');
  if (!existsSync(file)) return {};
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as { origins?: unknown; bureauUrl?: unknown };
    return {
      ...(Array.isArray(c.origins) ? { origins: c.origins.filter((o): o is string => typeof o === 'string') } : {}),
      ...(typeof c.bureauUrl === 'string' ? { bureauUrl: c.bureauUrl } : {}),
    };
  } catch {
    return {};
  }
}

/** Started by dzyhelper://start while a copy already runs: that copy is the one the page finds. */
async function alreadyRunning(): Promise<boolean> {
  const answers = await Promise.all(
    HELPER_PORTS.map(async (p) => {
      try {
        const res = await fetch(`http://127.0.0.1:${p}/?func=upversion`, { signal: AbortSignal.timeout(1_000) });
        return res.status === 200 || res.status === 403;
      } catch {
        return false;
      }
    }),
  );
  return answers.some(Boolean);
}

async function main() {
  const self = selfInstall();
  const config = installedConfig(self);
  const byProtocol = process.argv.some((a) => a.startsWith(`${HELPER_SCHEME}:`));
  if (byProtocol && (await alreadyRunning())) {
    console.log('365基础服务 已在运行');
    return;
  }
  const origins = (
    arg('origin') ??
    process.env.DZY_ORIGIN ??
    config.origins?.join(',') ??
    'http://127.0.0.1:8080,http://localhost:8080'
  )
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  const portText = arg('port') ?? process.env.DZY_HELPER_PORT;
  const bureauUrl = arg('bureau') ?? process.env.TAX_BUREAU_URL ?? config.bureauUrl ?? 'http://127.0.0.1:8090';
  const version = process.env.DZY_HELPER_BUILD_VERSION || HELPER_VERSION;

  const helper = await startHelper({
    origins,
    bureau: httpBureauClient({ baseUrl: bureauUrl }),
    bureauUrl,
    version,
    self,
    ...(portText ? { port: Number(portText) } : {}),
    ...(process.env.DZY_HELPER_TOKEN ? { token: process.env.DZY_HELPER_TOKEN } : {}),
    onUpgraded: (next) => {
      console.log(`365基础服务 已更新到 ${next}，正在重新启动…`);
      void helper.close().then(() => {
        const [cmd, args] =
          self?.kind === 'sea' ? [self.path, process.argv.slice(2)] : [process.execPath, process.argv.slice(1)];
        spawn(cmd, args, { detached: true, stdio: 'ignore' }).unref();
        process.exit(0);
      });
    },
  });
  console.log(
    `365基础服务 ${version} 已启动：${helper.url}（允许来源 ${origins.join('、')}；电子税务局 ${bureauUrl}）`,
  );

  const check = async () => {
    const r = await helper.checkProduct();
    if (r.kind === 'failed') console.warn(`365基础服务：${r.msg}`);
  };
  void check();
  setInterval(() => void check(), UPGRADE_CHECK_MS).unref();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void helper.close().then(() => process.exit(0));
    });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
