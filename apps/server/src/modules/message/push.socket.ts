import { randomUUID } from 'node:crypto';
import {
  ackSchema,
  bindSchema,
  CODE,
  handshakeSchema,
  MSG,
  PUSH_CLOSE,
  PUSH_HEARTBEAT_MS,
  PUSH_PATH,
  type PushEnvelope,
} from '@dzy/shared';
import fastifyWebsocket from '@fastify/websocket';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { sessions } from '../../db/schema/index.js';
import type { Deps } from '../../plugins/calls.js';
import type { PushMessage } from '../../plugins/push.js';
import { fromAnotherSite } from '../../plugins/security.js';
import { IDLE_MS, resolveSession, type SessionCtx } from '../../plugins/session.js';

/** Internal push type that tells the sockets of a user and device that a newer one took over. */
const KICK_TYPE = '__kick';
/** Push types the client must acknowledge; unacknowledged ones are sent again on the next beats. */
const ACK_TYPES = new Set(['chat']);
const MAX_RESENDS = 3;
/** A socket that sent nothing for three heartbeats is dead. */
const DEAD_AFTER_MS = PUSH_HEARTBEAT_MS * 3;
const MAX_PAYLOAD = 64 * 1024;

const sessionOf = new WeakMap<FastifyRequest, SessionCtx>();

/** Whether the session row is still alive: not revoked, not past its absolute or idle end. */
async function sessionAlive(deps: Deps, sessionId: number): Promise<boolean> {
  const [row] = await deps.db.app
    .select({ revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  const now = Date.now();
  return !!row && !row.revokedAt && row.expiresAt.getTime() > now && row.lastSeenAt.getTime() + IDLE_MS > now;
}

/**
 * The push channel (foundation.md §4, §7): WebSocket at /api/ws on the page's origin, opened with the
 * session cookie. Commands are JSON {cmd, data}: handshake, bind (own user id only), heartbeat, ack
 * from the client; ok, error, push, kick from the server. The session is checked again every heartbeat
 * period: a socket never outlives it.
 */
export function registerPushSocket(app: FastifyInstance, deps: Deps) {
  app.register(async (scope) => {
    await scope.register(fastifyWebsocket, { options: { maxPayload: MAX_PAYLOAD } });
    scope.get(
      PUSH_PATH,
      {
        websocket: true,
        preValidation: async (req, reply) => {
          // The same judgment as every state-changing call (plugins/security.ts): the Origin against the
          // request's host as the trusted proxy passes it on, and Sec-Fetch-Site, so a page of another
          // site cannot ride on the cookie and a proxy's Host rewrite does not lock the page out.
          const session = !fromAnotherSite(req) ? await resolveSession(deps.db.app, req) : null;
          if (!session) {
            return reply.code(403).send({ code: CODE.SESSION_EXPIRED, msg: MSG.sessionExpired, data: null });
          }
          sessionOf.set(req, session);
        },
      },
      (socket, req) => {
        const session = sessionOf.get(req);
        if (!session) {
          socket.close(PUSH_CLOSE.sessionEnded, 'no session');
          return;
        }
        serveSocket(socket, session, deps, req.log);
      },
    );
  });
}

function serveSocket(socket: WebSocket, session: SessionCtx, deps: Deps, log: FastifyRequest['log']) {
  const connId = randomUUID();
  let deviceId: string | null = null;
  let bound = false;
  let unsubscribe: (() => void) | null = null;
  let lastHeard = Date.now();
  let closed = false;
  const pending = new Map<string, { frame: string; sent: number }>();

  const send = (cmd: string, data: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify({ cmd, data }));
  };
  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    cleanup();
    socket.close(code, reason);
  };
  const cleanup = () => {
    clearInterval(timer);
    unsubscribe?.();
    unsubscribe = null;
    pending.clear();
  };

  const onPush = (message: PushMessage) => {
    if (message.type === KICK_TYPE) {
      const { deviceId: dev, connId: newer } = message.data as { deviceId?: string; connId?: string };
      if (dev === deviceId && newer !== connId) {
        send('kick', { userId: session.userId, deviceId, msg: '该设备已建立新的连接' });
        close(PUSH_CLOSE.kicked, 'kicked');
      }
      return;
    }
    const envelope: PushEnvelope = { id: randomUUID(), type: message.type, data: message.data };
    if (ACK_TYPES.has(message.type)) envelope.ack = true;
    const frame = JSON.stringify({ cmd: 'push', data: envelope });
    if (envelope.ack) pending.set(envelope.id, { frame, sent: 1 });
    if (socket.readyState === socket.OPEN) socket.send(frame);
  };

  const timer = setInterval(() => {
    void (async () => {
      if (closed) return;
      if (Date.now() - lastHeard > DEAD_AFTER_MS) {
        close(1001, 'no heartbeat');
        return;
      }
      let alive = false;
      try {
        alive = await sessionAlive(deps, session.sessionId);
      } catch (err) {
        log.warn({ err }, 'push session check failed');
        return;
      }
      if (!alive) {
        send('error', { code: CODE.SESSION_EXPIRED, msg: MSG.sessionExpired });
        close(PUSH_CLOSE.sessionEnded, 'session ended');
        return;
      }
      for (const [id, p] of pending) {
        if (p.sent > MAX_RESENDS) pending.delete(id);
        else if (socket.readyState === socket.OPEN) {
          p.sent += 1;
          socket.send(p.frame);
        }
      }
    })();
  }, PUSH_HEARTBEAT_MS);

  socket.on('message', (raw, isBinary) => {
    lastHeard = Date.now();
    if (isBinary) return send('error', { msg: '只接受文本命令' });
    let parsed: { cmd?: unknown; data?: unknown };
    try {
      parsed = JSON.parse(raw.toString()) as { cmd?: unknown; data?: unknown };
    } catch {
      return send('error', { msg: '命令不是有效的 JSON' });
    }
    const cmd = typeof parsed?.cmd === 'string' ? parsed.cmd : '';
    switch (cmd) {
      case 'heartbeat':
        return send('ok', { cmd });
      case 'handshake': {
        const hs = handshakeSchema.safeParse(parsed.data ?? {});
        if (!hs.success) return send('error', { cmd, msg: '握手参数不正确（需要 deviceId）' });
        deviceId = hs.data.deviceId;
        return send('ok', { cmd, userId: session.userId, heartbeat: PUSH_HEARTBEAT_MS });
      }
      case 'bind': {
        if (!deviceId) return send('error', { cmd, msg: '请先握手' });
        const b = bindSchema.safeParse(parsed.data ?? {});
        if (!b.success) return send('error', { cmd, msg: '绑定参数不正确' });
        const ids = String(b.data.userId)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (ids.length === 0 || ids.some((id) => id !== String(session.userId))) {
          return send('error', { cmd, msg: '只能绑定当前登录用户' });
        }
        if (!bound) {
          bound = true;
          unsubscribe = deps.push.subscribe(session.userId, onPush);
          // Older sockets of this user and device, on any server process, give way to this one.
          void deps.push
            .publish([session.userId], { type: KICK_TYPE, data: { deviceId, connId } })
            .catch((err: unknown) => log.warn({ err }, 'push kick failed'));
        }
        return send('ok', { cmd, userId: session.userId });
      }
      case 'ack': {
        const a = ackSchema.safeParse(parsed.data ?? {});
        if (!a.success) return send('error', { cmd, msg: '确认参数不正确' });
        pending.delete(a.data.id);
        return send('ok', { cmd, id: a.data.id });
      }
      default:
        return send('error', { cmd, msg: '未知命令' });
    }
  });
  socket.on('close', () => {
    closed = true;
    cleanup();
  });
  socket.on('error', (err) => log.warn({ err }, 'push socket error'));
}
