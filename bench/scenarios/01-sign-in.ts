import { createHash, randomBytes } from 'node:crypto';
import { CODE, loginCall, type SessionInfo } from '@dzy/shared';
import { inScope } from '../../apps/server/src/db/client.js';
import { sessions } from '../../apps/server/src/db/schema/index.js';
import { findUserByAccount, normaliseAccount } from '../../apps/server/src/modules/auth/auth.service.js';
import { verifyPassword } from '../../apps/server/src/plugins/password.js';
import { ABSOLUTE_MS } from '../../apps/server/src/plugins/session.js';
import { defineScenario, expectThat } from '../scenario.js';
import { BENCH_PASSWORD } from '../setup.js';

// Password sign-in as the bench agency's administrator. The API call also checks the lock, records
// the attempt, picks the organisation, reads the membership and writes the audit log; the SQL side
// is only the user lookup and the session insert, as the brief for this benchmark asks.
export default defineScenario({
  name: 'sign-in',
  title: `POST /api/${loginCall.path} (password) | SQL: user lookup + session insert`,
  async prepare(env) {
    const { adminPhone, agencyId, passwordHash } = env.data;
    const body = { type: '1', account: adminPhone, password: BENCH_PASSWORD };
    const r = await env.call<SessionInfo>(loginCall.path, body);
    expectThat(r.code === CODE.OK && r.cookie, `sign-in answered ${r.code} ${r.msg}`);
    expectThat(r.data.orgId === agencyId && r.data.isAdmin === '1', 'sign-in lands in the bench agency as admin');

    const account = normaliseAccount(adminPhone);
    return {
      api: { method: 'POST', path: `/api/${loginCall.path}`, body },
      sql: () =>
        inScope(env.db.app, { agencyId: null, userId: null, kjgcId: null }, async (tx) => {
          const user = await findUserByAccount(tx, account);
          if (!user) throw new Error(`no user ${account}`);
          const [row] = await tx
            .insert(sessions)
            .values({
              tokenHash: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex'),
              userId: user.id,
              orgId: agencyId,
              expiresAt: new Date(Date.now() + ABSOLUTE_MS),
              ip: '127.0.0.1',
              userAgent: 'bench',
            })
            .returning();
          if (!row) throw new Error('session insert returned nothing');
        }),
      also: [
        {
          label: 'scrypt',
          op: async () => {
            if (!(await verifyPassword(BENCH_PASSWORD, passwordHash))) throw new Error('password did not verify');
          },
        },
      ],
      notes: [
        'each sign-in verifies one scrypt hash (N=16384, r=8) on libuv\'s thread pool; the "scrypt" row is that alone',
      ],
    };
  },
});
