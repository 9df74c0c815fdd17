import { parentPort } from 'node:worker_threads';
import { type HttpJob, runHttpJob } from './load.js';

// The API load generator's thread (started by HttpLoad): one job at a time, latencies sent back.
if (!parentPort) throw new Error('http-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', async (job: HttpJob) => {
  try {
    const r = await runHttpJob(job);
    port.postMessage(r, [r.latencies.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
});
