import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CheckRate, CODE, checkRateCall } from '@dzy/shared';
import { encrypt } from '../src/lib/crypto.js';
import type { TestApp } from './harness.js';

/**
 * A pass-through in front of the simulated bureau that counts the calls in flight, so a test can see
 * the most the bureau ever had at once from the product (the cap C is measured where it matters).
 */
export async function startCountingProxy(target: string) {
  const to = new URL(target);
  let inFlight = 0;
  let maxInFlight = 0;
  let calls = 0;
  const server = createServer((req, res) => {
    const counted = req.method === 'POST' && !req.url?.startsWith('/admin/');
    if (counted) {
      calls += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }
    let done = false;
    const end = () => {
      if (counted && !done) inFlight -= 1;
      done = true;
    };
    const up = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
        upRes.on('end', end);
      },
    );
    up.on('error', () => {
      end();
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', end);
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ inFlight, maxInFlight, calls }),
    reset() {
      maxInFlight = inFlight;
      calls = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Credentials {
  etax?: { account: string; password: string; sfbm?: string } | null;
  personal?: { dlfs: '1' | '2'; dlId?: string; password: string } | null;
  hydqsj?: string | null;
  qyzt?: string;
}

/** Stores an enterprise's e-tax and personal-tax credentials (encrypted, as the product does). */
export async function setCredentials(t: TestApp, enterpriseId: number, c: Credentials) {
  const key = t.config.secretKey;
  const sets: string[] = [];
  const params: unknown[] = [];
  const put = (col: string, v: unknown) => {
    params.push(v);
    sets.push(`${col} = $${params.length}`);
  };
  if (c.etax !== undefined) {
    put('xdzswj_dlzh', c.etax?.account ?? '');
    put('xdzswj_pass_enc', c.etax ? encrypt(key, c.etax.password) : '');
    put('xdzswj_sfbm', c.etax?.sfbm ?? (c.etax ? '1' : ''));
  }
  if (c.personal !== undefined) {
    put('dlfs', c.personal?.dlfs ?? '');
    put('dl_id', c.personal?.dlId ?? '');
    put('dl_password_enc', c.personal?.dlfs === '2' ? encrypt(key, c.personal.password) : '');
    put('report_password_enc', c.personal?.dlfs === '1' ? encrypt(key, c.personal.password) : '');
  }
  if (c.hydqsj !== undefined) put('hydqsj', c.hydqsj);
  if (c.qyzt !== undefined) put('qyzt', c.qyzt);
  params.push(enterpriseId);
  await t.ownerQuery(`update enterprises set ${sets.join(', ')} where id = $${params.length}`, params);
}

export const GOOD: Credentials = {
  etax: { account: 'bsy01', password: 'Etax@2026' },
  personal: { dlfs: '1', password: 'Gs@2026' },
  hydqsj: null,
  qyzt: '1',
};

/** Polls getRate until the batch is finished (done or stopped). */
export async function waitFinished(
  t: TestApp,
  cookie: string,
  batchId: number,
  timeoutMs = 60_000,
): Promise<CheckRate> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.call<CheckRate>(checkRateCall.path, { batchId }, cookie);
    if (r.code !== CODE.OK) throw new Error(`getRate answered ${r.code} ${r.msg}`);
    if (r.data.isChecks === 2) return r.data;
    if (Date.now() > until) throw new Error(`batch ${batchId} not finished: ${JSON.stringify(r.data)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The demo agency's enterprises (id, qysh) in id order, as the owner sees them. */
export async function demoEnterprises(t: TestApp, adminPhone = '13800000000') {
  return t.ownerQuery<{ id: number; qysh: string; qymc: string; service_status: string; allocate_user: number | null }>(
    `select e.id, e.qysh, e.qymc, e.service_status, e.allocate_user from enterprises e
      where e.agency_id = (select m.agency_id from memberships m join users u on u.id = m.user_id
                            where u.phone = $1 and m.is_admin limit 1)
        and e.deleted_at is null order by e.id`,
    [adminPhone],
  );
}
