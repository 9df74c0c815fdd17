import { createHmac, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { APIKEY_MSG, WEBHOOK_BACKOFF_SECONDS, WEBHOOK_MAX_ATTEMPTS, type WebhookEvent } from '@dzy/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { jobs, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import { decrypt } from '../../lib/crypto.js';
import type { JobHandler } from '../../plugins/jobs.js';
import { BLOCKED_CODE, guardedLookup, literalHostAllowed } from './webhook-target.js';

/**
 * Webhooks (issue 18 point 4, docs/decisions/auth.md). An event is written as one delivery row per
 * subscribed endpoint in the transaction of the change (the outbox: a rolled-back change sends nothing),
 * each with a job of the queue webhook.deliver. A job makes one try; a failed try schedules the next as a
 * new job due after WEBHOOK_BACKOFF_SECONDS, and after WEBHOOK_MAX_ATTEMPTS tries the delivery is failed.
 */
export const WEBHOOK_QUEUE = 'webhook.deliver';
const TIMEOUT_MS = 10_000;
const RESPONSE_ERROR_MAX = 200;

/** `sha256=` and the HMAC-SHA256 of `timestamp + '.' + body` with the endpoint's secret, in hex. */
export const signWebhook = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** Queues try number `attempt` of a delivery, due at `at`. */
async function queueTry(tx: Queryable, agencyId: number, deliveryId: number, attempt: number, at = new Date()) {
  await tx
    .insert(jobs)
    .values({
      agencyId,
      queue: WEBHOOK_QUEUE,
      key: `${deliveryId}:${attempt}`,
      payload: { deliveryId, attempt },
      runAfter: at,
    })
    .onConflictDoNothing({ target: [jobs.queue, jobs.key] });
}

/** Writes a delivery (and its first try) for one endpoint; returns its id. */
export async function queueDelivery(
  tx: Queryable,
  d: { agencyId: number; endpointId: number; event: string; payload: Record<string, unknown>; replayOf?: number },
): Promise<number> {
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({
      agencyId: d.agencyId,
      endpointId: d.endpointId,
      event: d.event,
      payload: d.payload,
      replayOf: d.replayOf ?? null,
    })
    .returning({ id: webhookDeliveries.id });
  if (!row) throw new Error('delivery insert returned nothing');
  await queueTry(tx, d.agencyId, row.id, 1);
  return row.id;
}

/**
 * Tells the agency's enabled endpoints subscribed to `event`, in the caller's transaction (scoped to the
 * agency). `data` is what the receiver gets under `data`: ids and the few fields that changed, no secrets.
 */
export async function emitWebhook(
  tx: Queryable,
  agencyId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.agencyId, agencyId),
        eq(webhookEndpoints.enabled, true),
        sql`${event} = any(${webhookEndpoints.events})`,
      ),
    );
  if (!endpoints.length) return;
  const payload = { eventId: randomUUID(), event, occurredAt: new Date().toISOString(), data };
  for (const e of endpoints) await queueDelivery(tx, { agencyId, endpointId: e.id, event, payload });
}

interface TryOutcome {
  ok: boolean;
  code: number | null;
  ms: number;
  error: string;
}

/**
 * One POST, through node:http(s) so that the connection's own DNS answer is checked (guardedLookup): a
 * host that resolved to a public address at save and to a private one now is refused, and redirects are
 * not followed.
 */
async function post(
  url: string,
  secret: string,
  deliveryId: number,
  event: string,
  body: string,
  allowLoopback: boolean,
): Promise<TryOutcome> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const started = Date.now();
  const failed = (error: string): TryOutcome => ({
    ok: false,
    code: null,
    ms: Date.now() - started,
    error: error.slice(0, RESPONSE_ERROR_MAX),
  });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return failed(APIKEY_MSG.urlBad);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return failed(APIKEY_MSG.urlBad);
  if (!literalHostAllowed(u, allowLoopback)) return failed(APIKEY_MSG.deliveryBlocked);
  const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<TryOutcome>((done) => {
    const req = send(
      u,
      {
        method: 'POST',
        lookup: guardedLookup(allowLoopback),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'dzy-webhook/1',
          'x-dzy-event': event,
          'x-dzy-delivery': String(deliveryId),
          'x-dzy-timestamp': timestamp,
          'x-dzy-signature': signWebhook(secret, timestamp, body),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < RESPONSE_ERROR_MAX) text += chunk;
        });
        res.on('error', () => undefined);
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          const ok = code >= 200 && code < 300;
          done({
            ok,
            code,
            ms: Date.now() - started,
            error: ok ? '' : `HTTP ${code} ${text}`.slice(0, RESPONSE_ERROR_MAX),
          });
        });
      },
    );
    req.on('error', (err: Error & { code?: string }) => {
      if (err.code === BLOCKED_CODE) done(failed(APIKEY_MSG.deliveryBlocked));
      else if (err.name === 'TimeoutError' || err.name === 'AbortError') done(failed('接收地址超时未响应'));
      else done(failed(`无法连接接收地址：${err.code ?? err.message}`));
    });
    req.end(body);
  });
}

export const webhookJobs: JobHandler[] = [
  {
    queue: WEBHOOK_QUEUE,
    perAgencyCap: 4,
    workers: 2,
    leaseSeconds: 30,
    maxAttempts: 1,
    async run({ job, deps, inTx, doneIn }) {
      const deliveryId = Number(job.payload.deliveryId);
      const found = await inTx(async (tx) => {
        const [row] = await tx
          .select({ d: webhookDeliveries, e: webhookEndpoints })
          .from(webhookDeliveries)
          .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
          .where(eq(webhookDeliveries.id, deliveryId))
          .limit(1);
        return row ?? null;
      });
      if (!found || found.d.state === 'success' || found.d.state === 'failed') return { skipped: true };
      const attempt = found.d.attempts + 1;
      const outcome: TryOutcome = found.e.enabled
        ? await post(
            found.e.url,
            decrypt(deps.config.secretKey, found.e.secret),
            deliveryId,
            found.d.event,
            JSON.stringify({ ...found.d.payload, deliveryId, attempt }),
            deps.config.webhookAllowLoopback,
          )
        : { ok: false, code: null, ms: 0, error: '接收地址已停用' };
      const retry = !outcome.ok && found.e.enabled && attempt < WEBHOOK_MAX_ATTEMPTS;
      const next = retry ? new Date(Date.now() + (WEBHOOK_BACKOFF_SECONDS[attempt - 1] ?? 43_200) * 1000) : null;
      await inTx(async (tx) => {
        await tx
          .update(webhookDeliveries)
          .set({
            state: outcome.ok ? 'success' : retry ? 'retrying' : 'failed',
            attempts: attempt,
            responseCode: outcome.code,
            durationMs: outcome.ms,
            error: outcome.error,
            lastAttemptAt: new Date(),
            nextRetryAt: next,
          })
          .where(eq(webhookDeliveries.id, deliveryId));
        if (next) await queueTry(tx, job.agencyId, deliveryId, attempt + 1, next);
        await doneIn(tx, { state: outcome.ok ? 'success' : retry ? 'retrying' : 'failed', code: outcome.code });
      });
      return undefined;
    },
  },
];
