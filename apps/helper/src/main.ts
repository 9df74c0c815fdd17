import { httpBureauClient } from '@dzy/shared';
import { startHelper } from './helper.server.js';

/**
 * 365基础服务 on this PC: `npm run helper` (or `npm start -w @dzy/helper`).
 * --origin / DZY_ORIGIN: product origins allowed to call it (comma-separated);
 * --port / DZY_HELPER_PORT: a fixed port (default: the first free of the ports the page probes);
 * --bureau / TAX_BUREAU_URL: the e-tax bureau (default the simulator at http://127.0.0.1:8090);
 * DZY_HELPER_TOKEN: the body token (default '123').
 */
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0) return process.argv[i + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

const origins = (arg('origin') ?? process.env.DZY_ORIGIN ?? 'http://127.0.0.1:8080,http://localhost:8080')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
const portText = arg('port') ?? process.env.DZY_HELPER_PORT;
const bureauUrl = arg('bureau') ?? process.env.TAX_BUREAU_URL ?? 'http://127.0.0.1:8090';

const helper = await startHelper({
  origins,
  bureau: httpBureauClient({ baseUrl: bureauUrl }),
  bureauUrl,
  ...(portText ? { port: Number(portText) } : {}),
  ...(process.env.DZY_HELPER_TOKEN ? { token: process.env.DZY_HELPER_TOKEN } : {}),
});
console.log(`365基础服务 已启动：${helper.url}（允许来源 ${origins.join('、')}；电子税务局 ${bureauUrl}）`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void helper.close().then(() => process.exit(0));
  });
}
