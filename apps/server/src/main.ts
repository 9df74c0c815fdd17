import { SCENARIO_TAXPAYERS, startTaxSim, type TaxSim } from '@dzy/tax-sim';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from './db/seed/demo.js';

const config = loadConfig();
// No bureau configured: the simulated e-tax bureau runs in this process (docs/tax-bureau-protocol.md).
let taxSim: TaxSim | null = null;
if (!config.taxBureauUrl) {
  taxSim = await startTaxSim({ port: config.taxSimPort }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EADDRINUSE') throw err;
    console.warn(`端口 ${config.taxSimPort} 已被占用，模拟电子税务局改用空闲端口`);
    return startTaxSim({ port: 0 });
  });
  config.taxBureauUrl = taxSim.url;
}
// Demo data on the first embedded start only; a PostgreSQL server gets it from `npm run seed`.
const db = await openDatabase(config, async (owner, kind) => {
  if (kind === 'pglite' && (await isEmpty(owner))) await seedDemo(owner, config.secretKey);
});
const app = await buildApp(config, db);
await app.listen({ port: config.port, host: config.host });

const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/`;
console.log(`\n代账云已启动：${url}  （数据库：${db.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'}）`);
console.log('演示账号：');
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.phone}  ${a.who}`);
console.log(`  密码均为 ${DEMO_PASSWORD}\n`);
if (taxSim) {
  console.log(
    `模拟电子税务局：${taxSim.url}  （任意税号、任意非空密码可登录；验证码见 ${taxSim.url}/admin/sms?qysh=税号）`,
  );
  console.log(`  固定场景的税号见 ${taxSim.url}/admin/scenarios（共 ${SCENARIO_TAXPAYERS.length} 个）\n`);
} else {
  console.log(`电子税务局：${config.taxBureauUrl}\n`);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'draining');
  await app.close(); // waits for requests in flight
  await db.close();
  await taxSim?.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
