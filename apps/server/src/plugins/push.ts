import { EventEmitter } from 'node:events';

/** What the push channel delivers to a user's open pages (the `push` command's payload). */
export interface PushMessage {
  /** What happened: 'news' (a new message), 'job' (progress of a background job), ... */
  type: string;
  data: Record<string, unknown>;
}

/**
 * Delivers pushes to the users connected to any server instance. In-process by default; with
 * REDIS_URL the push channel swaps in a Redis pub/sub hub so several processes share pushes.
 */
export interface PushHub {
  publish(userIds: readonly number[], message: PushMessage): Promise<void>;
  /** Listens for pushes to one user on this instance; returns the unsubscribe function. */
  subscribe(userId: number, listener: (message: PushMessage) => void): () => void;
  close(): Promise<void>;
}

export function localPushHub(): PushHub {
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    async publish(userIds, message) {
      for (const id of userIds) bus.emit(`u:${id}`, message);
    },
    subscribe(userId, listener) {
      bus.on(`u:${userId}`, listener);
      return () => bus.off(`u:${userId}`, listener);
    },
    async close() {
      bus.removeAllListeners();
    },
  };
}

const REDIS_CHANNEL = 'dzy:push';

/**
 * Shares pushes between server processes through Redis pub/sub: every process publishes to one channel
 * and delivers what arrives to its own listeners. Resolves once subscribed; fails when Redis cannot be
 * reached within `timeoutMs`, so a misconfigured instance refuses to start rather than lose pushes.
 */
export async function redisPushHub(
  url: string,
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
  timeoutMs = 10_000,
): Promise<PushHub> {
  const { Redis } = await import('ioredis');
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
  const pub = new Redis(url, options);
  const sub = new Redis(url, options);
  for (const [name, conn] of [
    ['publisher', pub],
    ['subscriber', sub],
  ] as const) {
    conn.on('error', (err: Error) => log.warn({ err: err.message, conn: name }, 'redis push connection error'));
  }
  const local = localPushHub();
  sub.on('message', (_channel: string, raw: string) => {
    try {
      const { userIds, message } = JSON.parse(raw) as { userIds: number[]; message: PushMessage };
      void local.publish(userIds, message);
    } catch (err) {
      log.error({ err }, 'bad push on redis channel');
    }
  });
  const connect = async () => {
    await Promise.all([pub.connect(), sub.connect()]);
    await sub.subscribe(REDIS_CHANNEL);
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis ${url} not reachable within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    pub.disconnect();
    sub.disconnect();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return {
    async publish(userIds, message) {
      if (userIds.length === 0) return;
      await pub.publish(REDIS_CHANNEL, JSON.stringify({ userIds, message }));
    },
    subscribe: (userId, listener) => local.subscribe(userId, listener),
    async close() {
      await local.close();
      await Promise.allSettled([sub.quit(), pub.quit()]);
    },
  };
}
