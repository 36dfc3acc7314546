import { inflateRawSync } from 'node:zlib';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`Not a valid ZIP: ${what}`);
}

/**
 * A small ZIP reader for tests: the entries named by the central directory, each inflated and checked against its
 * CRC-32 (`crc32` given by the caller, so the writer's own checksum is put to the test on known data first).
 */
export function unzip(file: Buffer, crc32: (data: Uint8Array) => number): Map<string, string> {
  const end = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  check(end > 0, 'no end of central directory');
  const count = file.readUInt16LE(end + 10);
  let at = file.readUInt32LE(end + 16);
  const entries = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    check(file.readUInt32LE(at) === 0x02014b50, 'central directory header');
    const method = file.readUInt16LE(at + 10);
    const crc = file.readUInt32LE(at + 16);
    const size = file.readUInt32LE(at + 20);
    const nameLength = file.readUInt16LE(at + 28);
    const extra = file.readUInt16LE(at + 30);
    const comment = file.readUInt16LE(at + 32);
    const local = file.readUInt32LE(at + 42);
    const name = file.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    check(file.readUInt32LE(local) === 0x04034b50, `local header of ${name}`);
    const start = local + 30 + file.readUInt16LE(local + 26) + file.readUInt16LE(local + 28);
    const raw = file.subarray(start, start + size);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    check(crc32(data) === crc, `CRC-32 of ${name}`);
    entries.set(name, data.toString('utf8'));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}
