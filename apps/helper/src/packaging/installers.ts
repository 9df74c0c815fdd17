/**
 * The install scripts of the distributed helper (issue 18 point 3): each copies the single-file build
 * to the user's own folders, writes the helper's config (the product origins it answers and the bureau),
 * and registers the custom protocol handler `dzyhelper://` so the page's 已安装，去启动 starts it. Nothing
 * here needs administrator rights: Linux uses ~/.local/share and xdg-mime, Windows HKCU\Software\Classes.
 */
import { HELPER_DOWNLOAD_PREFIX, HELPER_SCHEME } from '@dzy/shared';

export interface InstallerInput {
  /** Helper version the scripts install (shown, and written to the config). */
  version: string;
  /** Product origins the installed helper answers (the product the user downloaded it from). */
  origins: readonly string[];
  /** The e-tax bureau the helper talks to. */
  bureauUrl: string;
  /** sha256 (hex) of the build file the script installs, checked before anything is copied. */
  sha256: string;
  /** File name of the build beside the script. */
  buildFile: string;
}

/** config.json beside the installed program (read by main.ts when no flag or variable says otherwise). */
export function helperConfigJson(input: Pick<InstallerInput, 'origins' | 'bureauUrl' | 'version'>): string {
  return `${JSON.stringify({ origins: input.origins, bureauUrl: input.bureauUrl, version: input.version }, null, 2)}\n`;
}

/** Linux: `sh install-linux.sh [build file]` — ~/.local/share/dzyhelper, a .desktop file, xdg-mime default. */
export function linuxInstallScript(input: InstallerInput): string {
  const config = helperConfigJson(input);
  return `#!/bin/sh
# 365基础服务 ${input.version} — Linux 安装脚本（无需 root）
# 用法：sh install-linux.sh [${input.buildFile} 的路径]
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC="\${1:-$HERE/${input.buildFile}}"
SHA256=${input.sha256}
DATA="\${XDG_DATA_HOME:-$HOME/.local/share}"
DEST="$DATA/dzyhelper"
APPS="$DATA/applications"

if [ ! -f "$SRC" ]; then
  echo "找不到安装文件：$SRC（请把它与本脚本放在同一目录）" >&2
  exit 1
fi
GOT=$(sha256sum "$SRC" | cut -d' ' -f1)
if [ "$GOT" != "$SHA256" ]; then
  echo "安装文件校验失败（sha256 应为 $SHA256，实际 $GOT），请重新下载" >&2
  exit 1
fi

mkdir -p "$DEST" "$APPS"
install -m 0755 "$SRC" "$DEST/dzy-helper"
cat > "$DEST/config.json" <<'DZY_CONFIG'
${config.trimEnd()}
DZY_CONFIG

cat > "$APPS/dzyhelper.desktop" <<DZY_DESKTOP
[Desktop Entry]
Type=Application
Name=365基础服务
Comment=代账云本地助手
Exec="$DEST/dzy-helper" %u
Terminal=false
NoDisplay=true
MimeType=x-scheme-handler/${HELPER_SCHEME};
DZY_DESKTOP

if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database "$APPS" >/dev/null 2>&1 || true; fi
xdg-mime default dzyhelper.desktop x-scheme-handler/${HELPER_SCHEME}
echo "365基础服务 ${input.version} 已安装到 $DEST，并已注册 ${HELPER_SCHEME}:// 协议。"
echo "回到代账云页面点击「已安装，去启动」即可启动。"
`;
}

/** Linux uninstall: removes the program, its .desktop file (the xdg-mime default goes with it). */
export function linuxUninstallScript(): string {
  return `#!/bin/sh
# 365基础服务 — Linux 卸载脚本
set -eu
DATA="\${XDG_DATA_HOME:-$HOME/.local/share}"
rm -rf "$DATA/dzyhelper"
rm -f "$DATA/applications/dzyhelper.desktop"
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database "$DATA/applications" >/dev/null 2>&1 || true; fi
echo "365基础服务 已卸载。"
`;
}

const psQuote = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Windows: one PowerShell file carrying the build (base64) — copies it to %LOCALAPPDATA%\DzyHelper,
 * writes the config and registers dzyhelper:// under HKCU\Software\Classes.
 * Run: powershell -ExecutionPolicy Bypass -File dzy-helper-setup.ps1
 */
export function windowsInstallScript(input: InstallerInput & { payloadBase64: string; launcher: string }): string {
  const config = helperConfigJson(input);
  return `# 365基础服务 ${input.version} — Windows 安装脚本（无需管理员权限）
# 运行：powershell -ExecutionPolicy Bypass -File dzy-helper-setup.ps1
$ErrorActionPreference = 'Stop'
$Dest = Join-Path $env:LOCALAPPDATA 'DzyHelper'
$Sha256 = ${psQuote(input.sha256)}
New-Item -ItemType Directory -Force -Path $Dest | Out-Null

if (-not (Get-Command node -ErrorAction SilentlyContinue)) {
  Write-Host '未找到 Node.js 20 或更高版本：请先安装 Node.js（https://nodejs.org）后再运行本脚本。'
  exit 1
}

$Payload = [Convert]::FromBase64String(${psQuote(input.payloadBase64)})
$Got = ([System.BitConverter]::ToString([System.Security.Cryptography.SHA256]::Create().ComputeHash($Payload))).Replace('-', '').ToLower()
if ($Got -ne $Sha256) { Write-Host "安装文件校验失败（sha256 应为 $Sha256，实际 $Got），请重新下载"; exit 1 }
[System.IO.File]::WriteAllBytes((Join-Path $Dest ${psQuote(input.buildFile)}), $Payload)
Set-Content -Encoding UTF8 -Path (Join-Path $Dest 'dzy-helper.cmd') -Value ${psQuote(input.launcher)}
Set-Content -Encoding UTF8 -Path (Join-Path $Dest 'config.json') -Value ${psQuote(config.trimEnd())}

${psRegisterProtocol(input.version, 'dzy-helper.cmd')}`;
}

/** PowerShell that registers dzyhelper:// under HKCU to run `program` (in $Dest) with the URL. */
function psRegisterProtocol(version: string, program: string): string {
  return `$Key = 'HKCU:\\Software\\Classes\\${HELPER_SCHEME}'
New-Item -Force -Path $Key | Out-Null
Set-ItemProperty -Path $Key -Name '(default)' -Value 'URL:365基础服务'
Set-ItemProperty -Path $Key -Name 'URL Protocol' -Value ''
New-Item -Force -Path "$Key\\shell\\open\\command" | Out-Null
Set-ItemProperty -Path "$Key\\shell\\open\\command" -Name '(default)' -Value ('"' + (Join-Path $Dest ${psQuote(program)}) + '" "%1"')
Write-Host "365基础服务 ${version} 已安装到 $Dest，并已注册 ${HELPER_SCHEME}:// 协议。回到代账云页面点击「已安装，去启动」即可启动。"
`;
}

/**
 * Windows single executable: install-windows.ps1 takes dzy-helper-win-x64.exe from beside itself, or
 * downloads it from the product it came from, checks its sha256, copies it to %LOCALAPPDATA%\DzyHelper
 * and registers dzyhelper:// to run it. No Node.js needed.
 * Run: powershell -ExecutionPolicy Bypass -File install-windows.ps1
 */
export function windowsSeaInstallScript(input: InstallerInput): string {
  const config = helperConfigJson(input);
  const url = `${input.origins[0] ?? ''}${HELPER_DOWNLOAD_PREFIX}${encodeURIComponent(input.buildFile)}`;
  return `# 365基础服务 ${input.version} — Windows 安装脚本（无需管理员权限，无需 Node.js）
# 运行：powershell -ExecutionPolicy Bypass -File install-windows.ps1
$ErrorActionPreference = 'Stop'
$Dest = Join-Path $env:LOCALAPPDATA 'DzyHelper'
$Sha256 = ${psQuote(input.sha256)}
$Src = Join-Path $PSScriptRoot ${psQuote(input.buildFile)}
New-Item -ItemType Directory -Force -Path $Dest | Out-Null
if (-not (Test-Path $Src)) {
  $Src = Join-Path $env:TEMP ${psQuote(input.buildFile)}
  Write-Host '正在从代账云下载 365基础服务……'
  Invoke-WebRequest -UseBasicParsing -Uri ${psQuote(url)} -OutFile $Src
}
$Got = (Get-FileHash -Algorithm SHA256 -Path $Src).Hash.ToLower()
if ($Got -ne $Sha256) { Write-Host "安装文件校验失败（sha256 应为 $Sha256，实际 $Got），请重新下载"; exit 1 }
Copy-Item -Force -Path $Src -Destination (Join-Path $Dest 'dzy-helper.exe')
Set-Content -Encoding UTF8 -Path (Join-Path $Dest 'config.json') -Value ${psQuote(config.trimEnd())}

${psRegisterProtocol(input.version, 'dzy-helper.exe')}`;
}

/** The .cmd the protocol handler runs on Windows: the bundle with the Node.js on PATH, minimised. */
export function windowsLauncher(buildFile: string): string {
  return `@echo off\r\ncd /d "%~dp0"\r\nstart "365基础服务" /min node "%~dp0${buildFile}" %*\r\n`;
}

/** Windows uninstall (.reg): removes the protocol registration; the folder is removed by hand. */
export function windowsUninstallReg(): string {
  return `Windows Registry Editor Version 5.00\r\n\r\n[-HKEY_CURRENT_USER\\Software\\Classes\\${HELPER_SCHEME}]\r\n`;
}
