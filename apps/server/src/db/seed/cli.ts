import { loadConfig } from '../../config.js';
import { openDatabase } from '../client.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './demo.js';

// `npm run seed`: the demo data on whichever database is configured (never done on its own on a server).
const config = loadConfig();
let created = false;
const db = await openDatabase(config, async (owner) => {
  created = await seedDemo(owner, config.secretKey);
});
await db.close();
console.log(created ? '演示数据已创建。' : '演示数据已存在，未做改动。');
for (const a of DEMO_ACCOUNTS) console.log(`  ${a.phone}  ${a.who}`);
console.log(`  所有演示账号密码：${DEMO_PASSWORD}`);
