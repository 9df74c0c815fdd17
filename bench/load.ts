import http from 'node:http';
import { Worker } from 'node:worker_threads';

/** How long, or how many operations, a measurement runs, and how many run at once. */
export interface LoopOptions {
  concurrency: number;
  /** Stop starting new operations after this many seconds (ignored when `requests` is set). */
  seconds: number;
  /** Run exactly this many operations instead of running for `seconds`. */
  requests?: number;
}

export interface LoopResult {
  /** Milliseconds per operation, in completion order. */
  latencies: Float64Array;
  errors: number;
  firstError: string | null;
  /** From the start to the last completion. */
  elapsedMs: number;
}

const message = (e: unknown) =>
  e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);

/**
 * Closed loop: `concurrency` lanes, each starting its next operation as soon as the last one ends.
 * A failed operation (thrown) is counted as an error; its time is kept like any other.
 */
export async function closedLoop(op: (i: number) => Promise<unknown>, o: LoopOptions): Promise<LoopResult> {
  const limit = o.requests ?? Number.POSITIVE_INFINITY;
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const start = performance.now();
  const deadline = o.requests === undefined ? start + o.seconds * 1000 : Number.POSITIVE_INFINITY;
  let last = start;
  async function lane() {
    while (next < limit && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        await op(i);
      } catch (e) {
        errors++;
        firstError ??= message(e);
      }
      last = performance.now();
      latencies.push(last - t0);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, lane));
  return { latencies: Float64Array.from(latencies), errors, firstError, elapsedMs: last - start };
}

export interface Summary {
  requests: number;
  concurrency: number;
  errors: number;
  firstError: string | null;
  seconds: number;
  /** Completed operations per second of wall time. */
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of ascending-sorted values. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? Number.NaN;
}

export function summarise(r: LoopResult, concurrency: number): Summary {
  const sorted = Float64Array.from(r.latencies).sort();
  const n = sorted.length;
  let total = 0;
  for (const v of sorted) total += v;
  return {
    requests: n,
    concurrency,
    errors: r.errors,
    firstError: r.firstError,
    seconds: r.elapsedMs / 1000,
    rps: r.elapsedMs > 0 ? n / (r.elapsedMs / 1000) : Number.NaN,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[n - 1] ?? Number.NaN,
    mean: n ? total / n : Number.NaN,
  };
}

// --- HTTP ------------------------------------------------------------------------------------------------

/** One API request; a scenario may give several, sent in turn. */
export interface HttpSpec {
  method: 'GET' | 'POST';
  /** Path and query, e.g. /api/user/getQyBookCountInfo. */
  path: string;
  headers?: Record<string, string>;
  /** A JSON-serialisable body (sent as application/json), or none. */
  body?: unknown;
}

export interface HttpJob extends LoopOptions {
  baseUrl: string;
  specs: HttpSpec[];
}

interface Prepared {
  method: string;
  path: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

function prepare(spec: HttpSpec): Prepared {
  const body = spec.body === undefined ? null : Buffer.from(JSON.stringify(spec.body));
  // As the product's page sends it: a state-changing call with the session cookie and neither Origin nor
  // Sec-Fetch-Site is refused (plugins/security.ts, withoutProvenance).
  const headers: Record<string, string | number> = { 'sec-fetch-site': 'same-origin', ...spec.headers };
  if (body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = body.length;
  }
  return { method: spec.method, path: spec.path, headers, body };
}

const agents = new Map<number, http.Agent>();

/**
 * Sends one request on a keep-alive connection and checks the reply is the envelope's success:
 * HTTP 200 with body code 200. Anything else throws, so the loop counts it as an error.
 */
/**
 * One request. A kept-alive connection the server closed meanwhile fails with a reset on reuse: that is
 * the client's race, not the server's failure, so it is sent again once on a new connection.
 */
function send(base: URL, agent: http.Agent, p: Prepared, retried = false): Promise<void> {
  return sendOnce(base, agent, p).catch((err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
    const reset = err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.code === 'ECONNREFUSED';
    if (reset && !retried) return send(base, agent, p, true);
    throw err;
  });
}

function sendOnce(base: URL, agent: http.Agent, p: Prepared): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method: p.method, path: p.path, headers: p.headers, agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let code: unknown;
          let msg: unknown;
          try {
            ({ code, msg } = JSON.parse(text) as { code?: unknown; msg?: unknown });
          } catch {
            code = undefined;
          }
          if (res.statusCode === 200 && code === 200) resolve();
          else reject(new Error(`HTTP ${res.statusCode} ${p.path}: ${String(msg ?? text.slice(0, 120))}`));
        });
      },
    );
    req.on('error', reject);
    req.end(p.body ?? undefined);
  });
}

/** Runs an HTTP job in this thread (the worker calls it). Connections are kept alive between jobs. */
export async function runHttpJob(job: HttpJob): Promise<LoopResult> {
  const base = new URL(job.baseUrl);
  let agent = agents.get(job.concurrency);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });
    agents.set(job.concurrency, agent);
  }
  const prepared = job.specs.map(prepare);
  const a = agent;
  return closedLoop((i) => send(base, a, prepared[i % prepared.length] as Prepared), job);
}

/**
 * The load generator for the API: a worker thread, so that sending requests and reading replies do
 * not compete with the server for the main thread's event loop.
 */
export class HttpLoad {
  private readonly worker: Worker;
  private failure: Error | null = null;

  constructor() {
    // Worker threads do not inherit tsx's loader: register it in the worker, then load the TypeScript entry.
    const tsx = import.meta.resolve('tsx/esm/api');
    const entry = new URL('./http-worker.ts', import.meta.url).href;
    this.worker = new Worker(
      `import(${JSON.stringify(tsx)}).then((m) => m.register()).then(() => import(${JSON.stringify(entry)}))`,
      { eval: true },
    );
    this.worker.on('error', (e) => {
      this.failure = e;
    });
  }

  run(job: HttpJob): Promise<LoopResult> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const onMessage = (m: LoopResult | { error: string }) => {
        cleanup();
        if ('error' in m) reject(new Error(m.error));
        else resolve(m);
      };
      const onError = (e: Error) => {
        cleanup();
        reject(e);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`load worker exited (${code})`));
      };
      const cleanup = () => {
        this.worker.off('message', onMessage);
        this.worker.off('error', onError);
        this.worker.off('exit', onExit);
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', onError);
      this.worker.on('exit', onExit);
      this.worker.postMessage(job);
    });
  }

  async close() {
    await this.worker.terminate();
  }
}
