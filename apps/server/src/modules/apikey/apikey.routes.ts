import { randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_PREFIX,
  API_KEYS_MAX,
  APIKEY_MSG,
  apiKeyCreateCall,
  apiKeyListCall,
  apiKeyRevokeCall,
  CODE,
  fieldLabel,
  GRANTABLE_PERMS,
  WEBHOOKS_MAX,
  webhookCreateCall,
  webhookDeliveriesCall,
  webhookEnableCall,
  webhookListCall,
  webhookPingCall,
  webhookReplayCall,
  webhookUpdateCall,
} from '@dzy/shared';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { listPage, type Sort } from '../../db/paging.js';
import { apiKeys, users, webhookDeliveries, webhookEndpoints } from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { encrypt } from '../../lib/crypto.js';
import { hashApiKey } from '../../plugins/api-key.js';
import { type ServerModule, serve } from '../../plugins/calls.js';
import { AppError } from '../../plugins/errors.js';
import { chinaDate } from '../../plugins/jobs.js';
import { tenantOf } from '../role/member.repo.js';
import { queueDelivery, webhookJobs } from './webhook.js';
import { webhookUrlProblem } from './webhook-target.js';

const GRANTABLE = new Set<string>(GRANTABLE_PERMS);
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The end of a China day (YYYY-MM-DD): the key works through that whole day. */
const endOfChinaDay = (day: string) => new Date(new Date(`${day}T00:00:00+08:00`).getTime() + 86_400_000);

// --- API keys ------------------------------------------------------------------------------------

const KEY_SORT: Sort = { name: 'id', keys: [apiKeys.id], desc: true };

function keyState(k: { revokedAt: Date | null; expiresAt: Date | null }, now = Date.now()) {
  if (k.revokedAt) return 'revoked' as const;
  if (k.expiresAt && k.expiresAt.getTime() <= now) return 'expired' as const;
  return 'active' as const;
}

const listKeys = serve(apiKeyListCall, async ({ tx, session, body }) => {
  const agencyId = tenantOf(session);
  const conds: SQL[] = [sql`${apiKeys.agencyId} = ${agencyId}`];
  if (body.name) conds.push(sql`${apiKeys.name} ilike ${like(body.name)}`);
  if (body.state === 'revoked') conds.push(sql`${apiKeys.revokedAt} is not null`);
  if (body.state === 'expired') conds.push(sql`${apiKeys.revokedAt} is null and ${apiKeys.expiresAt} <= now()`);
  if (body.state === 'active') {
    conds.push(sql`${apiKeys.revokedAt} is null and (${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > now())`);
  }
  const where = sql.join(conds, sql` and `);
  const filter = { name: body.name, state: body.state };
  return listPage(tx, { from: sql`${apiKeys}`, where, sort: KEY_SORT, ask: body, filter }, async (ids) => {
    const rows = await tx
      .select({ k: apiKeys, by: users.hymc })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.createdBy))
      .where(and(eq(apiKeys.agencyId, agencyId), inArray(apiKeys.id, ids)));
    return rows.map(({ k, by }) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      perms: k.perms,
      createdByName: by,
      createdAt: k.createdAt.toISOString(),
      expiresAt: iso(k.expiresAt),
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
      state: keyState(k),
    }));
  });
});

const createKey = serve(apiKeyCreateCall, async ({ tx, session, body, req }) => {
  const agencyId = tenantOf(session);
  const perms = [...new Set(body.perms)];
  if (perms.some((p) => !GRANTABLE.has(p))) throw new AppError(CODE.BAD_REQUEST, `权限：${APIKEY_MSG.permUnknown}`);
  if (body.expiresOn !== null && body.expiresOn < chinaDate()) {
    throw new AppError(CODE.BAD_REQUEST, `有效期：${APIKEY_MSG.expiryBad}`);
  }
  const [live] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(eq(apiKeys.agencyId, agencyId), isNull(apiKeys.revokedAt)));
  if ((live?.n ?? 0) >= API_KEYS_MAX) throw new AppError(CODE.CONFLICT, APIKEY_MSG.tooMany);
  const secret = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const prefix = secret.slice(0, API_KEY_PREFIX.length + 6);
  const [row] = await tx
    .insert(apiKeys)
    .values({
      agencyId,
      name: body.name,
      prefix,
      tokenHash: hashApiKey(secret),
      perms: perms.sort(),
      createdBy: session.userId,
      expiresAt: body.expiresOn ? endOfChinaDay(body.expiresOn) : null,
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error('api key insert returned nothing');
  await audit(tx, req, session, 'apikey.create', `apikey:${row.id}`, {
    name: body.name,
    prefix,
    perms,
    expiresOn: body.expiresOn,
  });
  return { id: row.id, prefix, secret };
});

const revokeKey = serve(apiKeyRevokeCall, async ({ tx, session, body, req }) => {
  const agencyId = tenantOf(session);
  const [k] = await tx
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.agencyId, agencyId), eq(apiKeys.id, body.id)))
    .limit(1);
  if (!k) throw new AppError(CODE.NOT_FOUND, APIKEY_MSG.notFound);
  if (k.revokedAt) throw new AppError(CODE.CONFLICT, APIKEY_MSG.revoked);
  await tx.update(apiKeys).set({ revokedAt: new Date(), revokedBy: session.userId }).where(eq(apiKeys.id, k.id));
  await audit(tx, req, session, 'apikey.revoke', `apikey:${k.id}`, { name: k.name, prefix: k.prefix });
  return null;
});

// --- webhooks ------------------------------------------------------------------------------------

async function requireEndpoint(tx: Queryable, agencyId: number, id: number) {
  const [e] = await tx
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.agencyId, agencyId), eq(webhookEndpoints.id, id)))
    .limit(1);
  if (!e) throw new AppError(CODE.NOT_FOUND, APIKEY_MSG.webhookNotFound);
  return e;
}

const listWebhooks = serve(webhookListCall, async ({ tx, session }) => {
  const agencyId = tenantOf(session);
  const rows = await tx
    .select({
      e: webhookEndpoints,
      lastState: sql<
        string | null
      >`(select d.state from webhook_deliveries d where d.endpoint_id = ${webhookEndpoints.id} order by d.id desc limit 1)`,
      lastAt: sql<
        string | null
      >`(select d.created_at from webhook_deliveries d where d.endpoint_id = ${webhookEndpoints.id} order by d.id desc limit 1)`,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.agencyId, agencyId))
    .orderBy(desc(webhookEndpoints.id));
  return rows.map(({ e, lastState, lastAt }) => ({
    id: e.id,
    url: e.url,
    events: e.events,
    remark: e.remark,
    enabled: e.enabled,
    createdAt: e.createdAt.toISOString(),
    lastState,
    lastAt: lastAt ? new Date(lastAt).toISOString() : null,
  }));
});

/** Refuses a target the server must not post to (webhook-target.ts), as a bad field of the form. */
async function requireSafeUrl(url: string, allowLoopback: boolean) {
  const problem = await webhookUrlProblem(url, allowLoopback);
  if (problem) throw new AppError(CODE.BAD_REQUEST, `${fieldLabel('url')}：${problem}`);
}

const createWebhook = serve(webhookCreateCall, async ({ tx, session, body, req, deps }) => {
  const agencyId = tenantOf(session);
  await requireSafeUrl(body.url, deps.config.webhookAllowLoopback);
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.agencyId, agencyId));
  if ((count?.n ?? 0) >= WEBHOOKS_MAX) throw new AppError(CODE.CONFLICT, APIKEY_MSG.webhooksTooMany);
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({
      agencyId,
      url: body.url,
      events: [...new Set(body.events)],
      remark: body.remark,
      secret: encrypt(deps.config.secretKey, secret),
      createdBy: session.userId,
    })
    .returning({ id: webhookEndpoints.id });
  if (!row) throw new Error('webhook insert returned nothing');
  await audit(tx, req, session, 'webhook.create', `webhook:${row.id}`, { url: body.url, events: body.events });
  return { id: row.id, secret };
});

const updateWebhook = serve(webhookUpdateCall, async ({ tx, session, body, req, deps }) => {
  const agencyId = tenantOf(session);
  const e = await requireEndpoint(tx, agencyId, body.id);
  await requireSafeUrl(body.url, deps.config.webhookAllowLoopback);
  await tx
    .update(webhookEndpoints)
    .set({ url: body.url, events: [...new Set(body.events)], remark: body.remark, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, e.id));
  await audit(tx, req, session, 'webhook.update', `webhook:${e.id}`, {
    before: { url: e.url, events: e.events },
    after: { url: body.url, events: body.events },
  });
  return null;
});

const enableWebhook = serve(webhookEnableCall, async ({ tx, session, body, req }) => {
  const agencyId = tenantOf(session);
  const e = await requireEndpoint(tx, agencyId, body.id);
  await tx
    .update(webhookEndpoints)
    .set({ enabled: body.enabled, updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, e.id));
  await audit(tx, req, session, body.enabled ? 'webhook.enable' : 'webhook.disable', `webhook:${e.id}`, {
    url: e.url,
  });
  return null;
});

const pingWebhook = serve(webhookPingCall, async ({ tx, session, body, deps, afterCommit }) => {
  const agencyId = tenantOf(session);
  const e = await requireEndpoint(tx, agencyId, body.id);
  if (!e.enabled) throw new AppError(CODE.CONFLICT, APIKEY_MSG.webhookDisabled);
  const payload = {
    eventId: randomUUID(),
    event: 'ping',
    occurredAt: new Date().toISOString(),
    data: { webhookId: e.id, message: '这是一条测试事件' },
  };
  const deliveryId = await queueDelivery(tx, { agencyId, endpointId: e.id, event: 'ping', payload });
  afterCommit(() => deps.wakeJobs());
  return { deliveryId };
});

const DELIVERY_SORT: Sort = { name: 'id', keys: [webhookDeliveries.id], desc: true };

const listDeliveries = serve(webhookDeliveriesCall, async ({ tx, session, body }) => {
  const agencyId = tenantOf(session);
  const e = await requireEndpoint(tx, agencyId, body.webhookId);
  const where = body.state
    ? sql`${webhookDeliveries.endpointId} = ${e.id} and ${webhookDeliveries.state} = ${body.state}`
    : sql`${webhookDeliveries.endpointId} = ${e.id}`;
  const filter = { webhookId: e.id, state: body.state };
  return listPage(
    tx,
    { from: sql`${webhookDeliveries}`, where, sort: DELIVERY_SORT, ask: body, filter },
    async (ids) => {
      const rows = await tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.agencyId, agencyId), inArray(webhookDeliveries.id, ids)));
      return rows.map((d) => ({
        id: d.id,
        event: d.event,
        state: d.state,
        attempts: d.attempts,
        responseCode: d.responseCode,
        durationMs: d.durationMs,
        error: d.error,
        createdAt: d.createdAt.toISOString(),
        lastAttemptAt: iso(d.lastAttemptAt),
        nextRetryAt: iso(d.nextRetryAt),
        replayOf: d.replayOf,
      }));
    },
  );
});

const replayDelivery = serve(webhookReplayCall, async ({ tx, session, body, req, deps, afterCommit }) => {
  const agencyId = tenantOf(session);
  const [d] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.agencyId, agencyId), eq(webhookDeliveries.id, body.id)))
    .limit(1);
  if (!d) throw new AppError(CODE.NOT_FOUND, APIKEY_MSG.deliveryNotFound);
  const e = await requireEndpoint(tx, agencyId, d.endpointId);
  if (!e.enabled) throw new AppError(CODE.CONFLICT, APIKEY_MSG.webhookDisabled);
  const deliveryId = await queueDelivery(tx, {
    agencyId,
    endpointId: e.id,
    event: d.event,
    payload: d.payload,
    replayOf: d.replayOf ?? d.id,
  });
  await audit(tx, req, session, 'webhook.replay', `webhook:${e.id}`, { delivery: d.id, replay: deliveryId });
  afterCommit(() => deps.wakeJobs());
  return { deliveryId };
});

export const apiKeyModule: ServerModule = {
  name: 'apikey',
  calls: [
    listKeys,
    createKey,
    revokeKey,
    listWebhooks,
    createWebhook,
    updateWebhook,
    enableWebhook,
    pingWebhook,
    listDeliveries,
    replayDelivery,
  ],
  jobs: webhookJobs,
};
