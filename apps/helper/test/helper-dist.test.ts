import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HELPER_SCHEME, HELPER_START_URL, HELPER_VERSION, type HelperManifest } from '@dzy/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE, buildHelperDist, MANIFEST, WIN_SEA, WIN_SETUP, withoutAuthenticode } from '../src/packaging/build.js';
import { linuxInstallScript, linuxUninstallScript, windowsSeaInstallScript } from '../src/packaging/installers.js';

const root = resolve(import.meta.dirname, '../../..');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
let out: string;
let manifest: HelperManifest;
const ORIGIN = 'https://dzy.example.cn';

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'dzy-helper-dist-'));
  // The Linux single executable (Node SEA) is left out here: it copies and patches the 96 MB Node binary.
  manifest = await buildHelperDist({
    root,
    outDir: out,
    sea: false,
    origins: [ORIGIN],
    bureauUrl: 'https://etax.example.cn',
  });
}, 120_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe('npm run helper:dist', () => {
  it('writes the manifest with each file’s real size and sha256', () => {
    expect(manifest.version).toBe(HELPER_VERSION);
    expect(JSON.parse(readFileSync(join(out, MANIFEST), 'utf8'))).toEqual(manifest);
    expect(manifest.builds.map((b) => b.file).sort()).toEqual([BUNDLE, WIN_SETUP, 'dzy-helper-uninstall.reg'].sort());
    for (const b of manifest.builds) {
      const buf = readFileSync(join(out, b.file));
      expect(b.size).toBe(buf.length);
      expect(b.sha256).toBe(sha256(buf));
    }
  });

  it('the one-file bundle runs with plain node and answers the probe', async () => {
    const child = spawn(process.execPath, [join(out, BUNDLE), '--port', '0', '--origin', ORIGIN], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let text = '';
        const timer = setTimeout(() => fail(new Error(`no start line: ${text}`)), 20_000);
        child.stdout.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          const m = /已启动：(http:\/\/127\.0\.0\.1:\d+)/.exec(text);
          if (m?.[1]) {
            clearTimeout(timer);
            done(m[1]);
          }
        });
      });
      const res = await fetch(`${url}/?func=upversion`, { headers: { origin: ORIGIN } });
      expect(await res.json()).toMatchObject({ code: 200, version: HELPER_VERSION });
      const refused = await fetch(`${url}/?func=upversion`, { headers: { origin: 'https://evil.example' } });
      expect(refused.status).toBe(403);
    } finally {
      child.kill();
    }
  });

  it('the Windows installer carries the bundle, checks it, and registers dzyhelper:// under HKCU', () => {
    const ps1 = readFileSync(join(out, WIN_SETUP), 'utf8');
    const bundle = readFileSync(join(out, BUNDLE));
    const payload = /FromBase64String\('([A-Za-z0-9+/=]+)'\)/.exec(ps1)?.[1] ?? '';
    expect(Buffer.from(payload, 'base64').equals(bundle)).toBe(true);
    expect(ps1).toContain(`$Sha256 = '${sha256(bundle)}'`);
    expect(ps1).toContain(`$Key = 'HKCU:\\Software\\Classes\\${HELPER_SCHEME}'`);
    expect(ps1).toContain("Set-ItemProperty -Path $Key -Name 'URL Protocol' -Value ''");
    expect(ps1).toContain(`"$Key\\shell\\open\\command"`);
    expect(ps1).toContain(`'"' + (Join-Path $Dest 'dzy-helper.cmd') + '" "%1"'`);
    expect(ps1).toContain(ORIGIN);
    expect(ps1).toContain('未找到 Node.js 20 或更高版本');
    const reg = readFileSync(join(out, 'dzy-helper-uninstall.reg'), 'utf8');
    expect(reg).toContain(`[-HKEY_CURRENT_USER\\Software\\Classes\\${HELPER_SCHEME}]`);
    expect(HELPER_START_URL).toBe('dzyhelper://start');
  });
});

describe('the Linux install script (run against a scratch home, xdg-mime replaced by a recorder)', () => {
  let dir: string;
  let home: string;
  let env: NodeJS.ProcessEnv;
  const program = Buffer.from('#!/bin/sh\necho helper\n');

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dzy-helper-install-'));
    home = join(dir, 'home');
    mkdirSync(home);
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'xdg-mime'), `#!/bin/sh\necho "$@" >> "${join(dir, 'xdg-mime.log')}"\n`);
    chmodSync(join(dir, 'bin', 'xdg-mime'), 0o755);
    writeFileSync(join(dir, 'dzy-helper-linux-x64'), program);
    const script = linuxInstallScript({
      version: '1.2.0',
      origins: [ORIGIN],
      bureauUrl: 'https://etax.example.cn',
      sha256: sha256(program),
      buildFile: 'dzy-helper-linux-x64',
    });
    writeFileSync(join(dir, 'install-linux.sh'), script);
    writeFileSync(join(dir, 'uninstall-linux.sh'), linuxUninstallScript());
    env = { HOME: home, PATH: `${join(dir, 'bin')}:/usr/bin:/bin` };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a build whose sha256 differs, installing nothing', () => {
    const bad = join(dir, 'tampered');
    writeFileSync(bad, Buffer.concat([program, Buffer.from('#')]));
    const r = spawnSync('sh', [join(dir, 'install-linux.sh'), bad], { env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('安装文件校验失败');
    expect(existsSync(join(home, '.local/share/dzyhelper'))).toBe(false);
  });

  it('installs the program, its config and the .desktop handler, and makes it the dzyhelper:// default', () => {
    execFileSync('sh', [join(dir, 'install-linux.sh')], { env });
    const dest = join(home, '.local/share/dzyhelper');
    expect(readFileSync(join(dest, 'dzy-helper'))).toEqual(program);
    expect(statSync(join(dest, 'dzy-helper')).mode & 0o777).toBe(0o755);
    expect(JSON.parse(readFileSync(join(dest, 'config.json'), 'utf8'))).toEqual({
      origins: [ORIGIN],
      bureauUrl: 'https://etax.example.cn',
      version: '1.2.0',
    });
    const desktop = readFileSync(join(home, '.local/share/applications/dzyhelper.desktop'), 'utf8');
    expect(desktop).toContain(`Exec="${dest}/dzy-helper" %u`);
    expect(desktop).toContain(`MimeType=x-scheme-handler/${HELPER_SCHEME};`);
    expect(desktop).toContain('Name=365基础服务');
    expect(readFileSync(join(dir, 'xdg-mime.log'), 'utf8').trim()).toBe(
      `default dzyhelper.desktop x-scheme-handler/${HELPER_SCHEME}`,
    );
  });

  it('uninstalls', () => {
    execFileSync('sh', [join(dir, 'uninstall-linux.sh')], { env });
    expect(existsSync(join(home, '.local/share/dzyhelper'))).toBe(false);
    expect(existsSync(join(home, '.local/share/applications/dzyhelper.desktop'))).toBe(false);
  });
});

describe('the Windows single executable', () => {
  /** A minimal PE32+ header with a certificate table of `cert` bytes at `at`, in a file of `size` bytes. */
  const fakePe = (size: number, at: number, cert: number) => {
    const pe = Buffer.alloc(size);
    pe.writeUInt32LE(0x80, 0x3c);
    pe.write('PE\0\0', 0x80, 'latin1');
    pe.writeUInt16LE(0x20b, 0x80 + 24);
    pe.writeUInt32LE(at, 0x80 + 24 + 112 + 32);
    pe.writeUInt32LE(cert, 0x80 + 24 + 112 + 36);
    return pe;
  };

  it('drops node.exe’s signature before the blob goes in: the security directory cleared, the table cut off', () => {
    const out = withoutAuthenticode(fakePe(0x500, 0x400, 0x100));
    expect(out.length).toBe(0x400);
    expect(out.readUInt32LE(0x80 + 24 + 112 + 32)).toBe(0);
    expect(out.readUInt32LE(0x80 + 24 + 112 + 36)).toBe(0);
    // A table not at the end is only unlinked, nothing after it is cut.
    expect(withoutAuthenticode(fakePe(0x600, 0x400, 0x100)).length).toBe(0x600);
    expect(() => withoutAuthenticode(Buffer.alloc(0x200))).toThrow('不是 Windows 可执行文件');
  });

  it('install-windows.ps1 takes the .exe from beside it or from the product, checks it, and registers dzyhelper://', () => {
    const ps1 = windowsSeaInstallScript({
      version: '1.2.0',
      origins: [ORIGIN],
      bureauUrl: 'https://etax.example.cn',
      sha256: 'ab'.repeat(32),
      buildFile: WIN_SEA,
    });
    expect(ps1).toContain(`$Src = Join-Path $PSScriptRoot '${WIN_SEA}'`);
    expect(ps1).toContain(`-Uri '${ORIGIN}/api/helper/download/${WIN_SEA}'`);
    expect(ps1).toContain(`$Sha256 = '${'ab'.repeat(32)}'`);
    expect(ps1).toContain("-Destination (Join-Path $Dest 'dzy-helper.exe')");
    expect(ps1).toContain(`'"' + (Join-Path $Dest 'dzy-helper.exe') + '" "%1"'`);
    expect(ps1).not.toContain('Node.js 20');
  });
});
