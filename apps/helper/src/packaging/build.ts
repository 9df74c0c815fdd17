/**
 * `npm run helper:dist` (scripts/helper-dist.mjs): the helper as a program to install.
 * - dzy-helper.cjs: the whole helper in one CommonJS file (esbuild), runs on any Node.js 20+;
 * - dzy-helper-linux-x64: a single executable (Node SEA: this Node binary with the bundle injected by
 *   postject), needs nothing installed;
 * - Windows: a Windows node.exe cannot be had offline, so there is no Windows SEA; its build is the
 *   bundle inside one PowerShell installer (dzy-helper-setup.ps1) that needs Node.js 20+ on the PC;
 * - install-linux.sh / uninstall-linux.sh / dzy-helper-uninstall.reg, and manifest.json with each
 *   file's size and sha256, which the product serves (helper/version, /api/helper/download/<file>).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { HELPER_VERSION, type HelperBuild, type HelperManifest } from '@dzy/shared';
import { build } from 'esbuild';
import {
  linuxInstallScript,
  linuxUninstallScript,
  windowsInstallScript,
  windowsLauncher,
  windowsUninstallReg,
} from './installers.js';

export interface DistOptions {
  /** Repository root. */
  root: string;
  outDir: string;
  /** Build the Linux single executable (slow: copies and patches the Node binary). */
  sea: boolean;
  origins: readonly string[];
  bureauUrl: string;
  version?: string;
}

export const BUNDLE = 'dzy-helper.cjs';
export const LINUX_SEA = 'dzy-helper-linux-x64';
export const WIN_SETUP = 'dzy-helper-setup.ps1';
export const MANIFEST = 'manifest.json';
/** The fuse postject flips so the Node binary runs the injected blob (Node's documented value). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const sha256 = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

export async function buildHelperDist(opts: DistOptions): Promise<HelperManifest> {
  const version = opts.version ?? HELPER_VERSION;
  const out = resolve(opts.outDir);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const builds: HelperBuild[] = [];
  const add = (file: string, title: string, platform: HelperBuild['platform'], kind: HelperBuild['kind']) => {
    const buf = readFileSync(join(out, file));
    const b: HelperBuild = { file, title, platform, kind, size: buf.length, sha256: sha256(buf) };
    builds.push(b);
    return b;
  };

  // 1. One CommonJS file with every dependency inside (SEA runs CommonJS only).
  await build({
    entryPoints: [resolve(opts.root, 'apps/helper/src/main.ts')],
    outfile: join(out, BUNDLE),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    alias: { '@dzy/shared': resolve(opts.root, 'packages/shared/src/index.ts') },
    define: { 'process.env.DZY_HELPER_BUILD_VERSION': JSON.stringify(version) },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const bundle = readFileSync(join(out, BUNDLE));
  const bundleSha = sha256(bundle);

  // 2. Linux single executable.
  if (opts.sea) {
    if (process.platform !== 'linux') throw new Error('单文件程序（SEA）只能在 Linux 上构建 Linux 版');
    const work = join(out, '.sea');
    mkdirSync(work, { recursive: true });
    const blob = join(work, 'sea-prep.blob');
    writeFileSync(
      join(work, 'sea-config.json'),
      JSON.stringify({ main: join(out, BUNDLE), output: blob, disableExperimentalSEAWarning: true }),
    );
    execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'pipe' });
    const exe = join(out, LINUX_SEA);
    copyFileSync(process.execPath, exe);
    const require = createRequire(import.meta.url);
    const { inject } = require('postject') as {
      inject(file: string, name: string, data: Buffer, o: { sentinelFuse: string }): Promise<void>;
    };
    await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE });
    execFileSync('chmod', ['755', exe]);
    rmSync(work, { recursive: true, force: true });
    const sea = add(LINUX_SEA, '365基础服务 Linux 单文件程序（x64，无需安装 Node.js）', 'linux', 'sea');
    writeFileSync(
      join(out, 'install-linux.sh'),
      linuxInstallScript({
        version,
        origins: opts.origins,
        bureauUrl: opts.bureauUrl,
        sha256: sea.sha256,
        buildFile: LINUX_SEA,
      }),
      { mode: 0o755 },
    );
    add('install-linux.sh', 'Linux 安装脚本（注册 dzyhelper:// 协议）', 'linux', 'installer');
    writeFileSync(join(out, 'uninstall-linux.sh'), linuxUninstallScript(), { mode: 0o755 });
    add('uninstall-linux.sh', 'Linux 卸载脚本', 'linux', 'uninstaller');
  }

  // 3. Windows: the bundle inside one installer script.
  writeFileSync(
    join(out, WIN_SETUP),
    windowsInstallScript({
      version,
      origins: opts.origins,
      bureauUrl: opts.bureauUrl,
      sha256: bundleSha,
      buildFile: BUNDLE,
      payloadBase64: bundle.toString('base64'),
      launcher: windowsLauncher(BUNDLE),
    }),
  );
  add(WIN_SETUP, '365基础服务 Windows 安装程序（PowerShell，需 Node.js 20+）', 'win32', 'installer');
  writeFileSync(join(out, 'dzy-helper-uninstall.reg'), windowsUninstallReg());
  add('dzy-helper-uninstall.reg', 'Windows 卸载（删除 dzyhelper:// 协议注册）', 'win32', 'uninstaller');
  add(BUNDLE, '365基础服务单文件脚本（任意系统，需 Node.js 20+：node dzy-helper.cjs）', 'win32', 'bundle');

  const manifest: HelperManifest = { version, builtAt: new Date().toISOString(), builds };
  writeFileSync(join(out, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Size of a file, for the command's summary. */
export const sizeOf = (path: string) => statSync(path).size;
