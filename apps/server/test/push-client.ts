import { PUSH_PATH } from '@dzy/shared';
import WebSocket from 'ws';

export interface Frame {
  cmd: string;
  data: Record<string, unknown> & { type?: string; id?: string; data?: Record<string, unknown> };
}

/**
 * A push-channel client for tests: connects to /api/ws with a session cookie, records every frame,
 * and waits for the ones a test expects.
 */
export class PushClient {
  readonly frames: Frame[] = [];
  closeCode: number | null = null;
  private waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as Frame;
      this.frames.push(frame);
      for (const w of [...this.waiters]) {
        if (w.test(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(frame);
        }
      }
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        resolve(code);
      }),
    );
  }

  /** Opens a socket; rejects with the HTTP status when the upgrade is refused. */
  static open(baseUrl: string, cookie?: string, headers: Record<string, string> = {}): Promise<PushClient> {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}${PUSH_PATH}`, {
      headers: { ...(cookie ? { cookie } : {}), ...headers },
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new PushClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Opens, shakes hands and binds the user: ready for pushes. */
  static async ready(baseUrl: string, cookie: string, userId: number, deviceId = 'test-device'): Promise<PushClient> {
    const c = await PushClient.open(baseUrl, cookie);
    await c.command('handshake', { deviceId, osName: 'Linux', osVersion: 'test', clientVersion: '1' });
    await c.command('bind', { userId: String(userId), tags: '' });
    return c;
  }

  send(cmd: string, data: unknown) {
    this.ws.send(JSON.stringify({ cmd, data }));
  }

  /** Sends a command and waits for its ok or error. */
  async command(cmd: string, data: unknown): Promise<Frame> {
    const reply = this.next((f) => (f.cmd === 'ok' || f.cmd === 'error') && f.data.cmd === cmd);
    this.send(cmd, data);
    return reply;
  }

  /** The next frame (not yet seen) that passes `test`. */
  next(test: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  nextPush(type: string, timeoutMs = 5000) {
    return this.next((f) => f.cmd === 'push' && f.data.type === type, timeoutMs);
  }

  pushes(type?: string) {
    return this.frames.filter((f) => f.cmd === 'push' && (!type || f.data.type === type));
  }

  /** Resolves with the close code. */
  whenClosed(timeoutMs = 15_000): Promise<number> {
    return Promise.race([
      this.closed,
      new Promise<number>((_, reject) => setTimeout(() => reject(new Error('socket still open')), timeoutMs)),
    ]);
  }

  close() {
    this.ws.close(1000, 'done');
  }
}
