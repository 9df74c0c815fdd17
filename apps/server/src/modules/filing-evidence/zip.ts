import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';

const deflate = promisify(deflateRaw);

/** DOS date and time of a moment (local fields of China time, as people expect to read them). */
function dosTime(d: Date) {
  const c = new Date(d.getTime() + 8 * 3_600_000);
  const time = (c.getUTCHours() << 11) | (c.getUTCMinutes() << 5) | Math.floor(c.getUTCSeconds() / 2);
  const date = ((c.getUTCFullYear() - 1980) << 9) | ((c.getUTCMonth() + 1) << 5) | c.getUTCDate();
  return { time, date };
}

/**
 * A zip archive of the given files (deflated, UTF-8 names flagged with bit 11 so 企业名称 folders read
 * right in every unzip tool). Receipts are a few KB each and a zip holds at most a few thousand, so the
 * archive is built in memory.
 */
export async function zipFiles(entries: readonly { name: string; data: Buffer }[], now = new Date()): Promise<Buffer> {
  const { time, date } = dosTime(now);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    // Compressed off the main thread, file by file: a zip of thousands of receipts never blocks requests.
    const packed = await deflate(e.data);
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A file or folder name without the characters Windows and zip tools refuse (/ \ : * ? " < > |). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
export const safeName = (s: string) => s.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim() || '_';
