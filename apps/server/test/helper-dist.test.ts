import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE, HELPER_MIN_VERSION, HELPER_VERSION, type HelperManifest, helperVersionCall } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER_DIST_MSG } from '../src/modules/helper-dist/helper-dist.routes.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
let dir: string;
const before = process.env.HELPER_DIST_DIR;
const build = Buffer.from('#!/bin/sh\necho 365基础服务 9.1.0\n');
const sha = createHash('sha256').update(build).digest('hex');

function writeManifest(m: HelperManifest) {
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dzy-helper-dist-'));
  process.env.HELPER_DIST_DIR = dir;
  t = await startTestApp({ seed: false });
});

afterAll(async () => {
  if (before === undefined) delete process.env.HELPER_DIST_DIR;
  else process.env.HELPER_DIST_DIR = before;
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('helper/version (public: the helper asks without a session)', () => {
  it('with nothing built: the helper’s own version, the oldest accepted, no builds', async () => {
    const r = await t.call(helperVersionCall.path, {});
    expect(r.code).toBe(CODE.OK);
    expect(r.data).toEqual({ version: HELPER_VERSION, minVersion: HELPER_MIN_VERSION, builtAt: null, builds: [] });
  });

  it('names the latest build with each file’s size and sha256', async () => {
    writeFileSync(join(dir, 'dzy-helper-linux-x64'), build);
    writeFileSync(join(dir, 'secret.txt'), 'not a build');
    writeManifest({
      version: '9.1.0',
      builtAt: '2026-11-26T00:00:00.000Z',
      builds: [
        {
          file: 'dzy-helper-linux-x64',
          title: 'Linux',
          platform: 'linux',
          kind: 'sea',
          size: build.length,
          sha256: sha,
        },
      ],
    });
    const r = await t.call<{ version: string; builds: { file: string; sha256: string; size: number }[] }>(
      helperVersionCall.path,
      {},
    );
    expect(r.data.version).toBe('9.1.0');
    expect(r.data.builds).toEqual([
      expect.objectContaining({ file: 'dzy-helper-linux-x64', size: build.length, sha256: sha }),
    ]);
  });

  it('refuses a body with unknown fields, in the envelope', async () => {
    const r = await t.call(helperVersionCall.path, { version: '1' });
    expect(r.code).toBe(CODE.BAD_REQUEST);
  });
});

describe('GET /api/helper/download/:file', () => {
  it('serves a build the manifest names, byte for byte, with its sha256', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/helper/download/dzy-helper-linux-x64' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="dzy-helper-linux-x64"');
    expect(res.headers['x-checksum-sha256']).toBe(sha);
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(sha);
  });

  it('refuses a file the manifest does not name, and a path out of the folder', async () => {
    for (const url of [
      '/api/helper/download/secret.txt',
      '/api/helper/download/manifest.json',
      '/api/helper/download/..%2F..%2Fpackage.json',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: CODE.NOT_FOUND, msg: HELPER_DIST_MSG.noBuild });
    }
  });

  it('refuses a build whose file changed size since the manifest (a half-copied upload)', async () => {
    writeFileSync(join(dir, 'dzy-helper-linux-x64'), Buffer.concat([build, Buffer.from('x')]));
    const res = await t.app.inject({ method: 'GET', url: '/api/helper/download/dzy-helper-linux-x64' });
    expect(res.statusCode).toBe(404);
    writeFileSync(join(dir, 'dzy-helper-linux-x64'), build);
  });
});
