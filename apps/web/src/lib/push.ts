import {
  PUSH_CLOSE,
  PUSH_HEARTBEAT_MS,
  PUSH_MAX_RECONNECTS,
  PUSH_PATH,
  PUSH_RECONNECT_MS,
  type PushEnvelope,
} from '@dzy/shared';

/**
 * The push channel's client (foundation.md §4, §7, §9): a WebSocket to /api/ws on the page's origin
 * (wss under https), opened with the session cookie. handshake → bind → pushes; heartbeat every 5 s;
 * after an unplanned close it reconnects after 5 s, at most 20 times; a deliberate close (sign-out)
 * does not reconnect; a kick for this user and device reconnects at once.
 */
export type PushState = 'idle' | 'connecting' | 'open' | 'closed';
type Listener = (data: Record<string, unknown>, envelope: PushEnvelope) => void;

/** Identifies this page load: a newer socket of the same page replaces a stale one on the server. */
const deviceId = `web-${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
const CLIENT_VERSION = '1.0.0';

let socket: WebSocket | null = null;
let userId: number | null = null;
let state: PushState = 'idle';
let attempts = 0;
let deliberate = false;
let reconnectTimer = 0;
let heartbeatTimer = 0;
let lastHeard = 0;
const listeners = new Map<string, Set<Listener>>();
const stateListeners = new Set<(s: PushState) => void>();
let onSessionEnded: (() => void) | null = null;

function setState(next: PushState) {
  state = next;
  // Tests and support read the channel's state from the document.
  document.documentElement.dataset.push = next;
  for (const l of stateListeners) l(next);
}

function osInfo() {
  const ua = navigator.userAgent;
  const win = /Windows NT ([\d.]+)/.exec(ua);
  if (win) return { osName: 'Windows', osVersion: win[1] ?? '' };
  const mac = /Mac OS X ([\d_]+)/.exec(ua);
  if (mac) return { osName: 'macOS', osVersion: (mac[1] ?? '').replace(/_/g, '.') };
  return { osName: /Linux/.test(ua) ? 'Linux' : 'Other', osVersion: '' };
}

function send(cmd: string, data: unknown) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ cmd, data }));
}

function clearTimers() {
  window.clearInterval(heartbeatTimer);
  window.clearTimeout(reconnectTimer);
}

function scheduleReconnect(delay = PUSH_RECONNECT_MS) {
  window.clearTimeout(reconnectTimer);
  if (deliberate || userId === null) return;
  if (attempts >= PUSH_MAX_RECONNECTS) {
    setState('closed');
    return;
  }
  attempts += 1;
  reconnectTimer = window.setTimeout(open, delay);
}

function open() {
  if (userId === null) return;
  const ws = new WebSocket(
    `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}${PUSH_PATH}`,
  );
  socket = ws;
  setState('connecting');
  ws.onopen = () => {
    lastHeard = Date.now();
    send('handshake', { deviceId, ...osInfo(), clientVersion: CLIENT_VERSION });
    window.clearInterval(heartbeatTimer);
    heartbeatTimer = window.setInterval(() => {
      // Three beats without an answer: the connection is dead even if the browser has not noticed.
      if (Date.now() - lastHeard > PUSH_HEARTBEAT_MS * 3) ws.close(4000, 'no heartbeat answer');
      else send('heartbeat', {});
    }, PUSH_HEARTBEAT_MS);
  };
  ws.onmessage = (event) => {
    if (ws !== socket) return;
    lastHeard = Date.now();
    let frame: { cmd?: string; data?: Record<string, unknown> };
    try {
      frame = JSON.parse(String(event.data)) as typeof frame;
    } catch {
      return;
    }
    const data = frame.data ?? {};
    switch (frame.cmd) {
      case 'ok':
        if (data.cmd === 'handshake') send('bind', { userId: String(userId), tags: '' });
        else if (data.cmd === 'bind') {
          attempts = 0;
          setState('open');
        }
        return;
      case 'push': {
        const envelope = data as unknown as PushEnvelope;
        for (const l of listeners.get(envelope.type) ?? []) {
          try {
            l(envelope.data ?? {}, envelope);
          } catch (err) {
            console.error(err);
          }
        }
        if (envelope.ack) send('ack', { id: envelope.id });
        return;
      }
      case 'kick':
        // The server replaced this socket for the same user and device: connect again at once.
        if (String(data.userId) === String(userId) && data.deviceId === deviceId) {
          ws.onclose = null;
          ws.close();
          clearTimers();
          scheduleReconnect(0);
        }
        return;
      case 'error':
        if (data.code === 403) {
          deliberate = true;
          onSessionEnded?.();
        }
        return;
      default:
    }
  };
  ws.onclose = (event) => {
    if (ws !== socket) return;
    window.clearInterval(heartbeatTimer);
    socket = null;
    if (deliberate || event.code === PUSH_CLOSE.sessionEnded) {
      setState('closed');
      return;
    }
    if (event.code === PUSH_CLOSE.kicked) {
      scheduleReconnect(0);
      return;
    }
    setState('connecting');
    scheduleReconnect();
  };
}

/** Opens the channel for the signed-in user (again after a deliberate stop). */
export function startPush(forUserId: number, sessionEnded: () => void): void {
  onSessionEnded = sessionEnded;
  if (userId === forUserId && socket) return;
  stopPush();
  userId = forUserId;
  deliberate = false;
  attempts = 0;
  open();
}

/** Closes the channel on purpose (sign-out, leaving the signed-in area): no reconnection. */
export function stopPush(): void {
  deliberate = true;
  clearTimers();
  const ws = socket;
  socket = null;
  userId = null;
  if (ws) {
    ws.onclose = null;
    ws.close(1000, 'signed out');
  }
  setState('idle');
}

/** Listens for pushes of one type; returns the unsubscribe function. */
export function onPush(type: string, listener: Listener): () => void {
  let set = listeners.get(type);
  if (!set) {
    set = new Set();
    listeners.set(type, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

export function pushState(): PushState {
  return state;
}

export function onPushState(listener: (s: PushState) => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}
