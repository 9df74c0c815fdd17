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
