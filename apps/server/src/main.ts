import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, isEmpty, seedDemo } from './db/seed/demo.js';

const config = loadConfig();
// Demo data on the first embedded start only; a PostgreSQL server gets it from `npm run seed`.
const db = await openDatabase(config, async (owner, kind) => {
  if (kind === 'pglite' && (await isEmpty(owner))) await seedDemo(owner);
});
const app = await buildApp(config, db);
await app.listen({ port: config.port, host: config.host });

const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}/`;
console.log(`\n代账云已启动：${url}  （数据库：${db.kind === 'pglite' ? `PGlite ${config.dataDir}` : 'PostgreSQL'}）`);
console.log('演示账号：');
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.phone}  ${a.who}`);
console.log(`  密码均为 ${DEMO_PASSWORD}\n`);

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
