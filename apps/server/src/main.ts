import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from './db/seed/demo.js';

const config = loadConfig();
// The e-tax bureau is another machine, reached over HTTP only: TAX_BUREAU_URL, or the simulated bureau
// the start script runs as its own process (scripts/start.mjs), or one on TAX_SIM_PORT (npm run tax-sim).
config.taxBureauUrl ??= `http://127.0.0.1:${config.taxSimPort}`;
// Demo data on the first embedded start only; a PostgreSQL server gets it from `npm run seed`.
const db = await openDatabase(config, async (owner, kind) => {
  if (kind === 'pglite' && (await isEmpty(owner))) await seedDemo(owner, config.secretKey);
});
const app = await buildApp(config, db);
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  // Said plainly, not as a stack (scripts/start.mjs checks first; this covers starting the build directly).
  if ((err as { code?: string }).code !== 'EADDRINUSE') throw err;
  console.error(
    `\n端口 ${config.port} 已被其他程序占用，代账云无法启动：请关闭占用它的程序，或用 PORT=其他端口 启动。\n` +
      `Port ${config.port} is already in use by another program: stop it, or start with PORT=<another port>.\n`,
  );
  await db.close();
  process.exit(1);
}

const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/`;
console.log(`\n代账云已启动：${url}  （数据库：${db.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'}）`);
console.log('演示账号：');
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.phone}  ${a.who}`);
console.log(`  密码均为 ${DEMO_PASSWORD}\n`);
if (process.env.DZY_SIMULATED_BUREAU === '1') {
  console.log(
    `模拟电子税务局：${config.taxBureauUrl}  （任意税号、任意非空密码可登录；验证码见 ${config.taxBureauUrl}/admin/sms?qysh=税号）`,
  );
  console.log(`  固定场景的税号见 ${config.taxBureauUrl}/admin/scenarios\n`);
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
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
