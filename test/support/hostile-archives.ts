/**
 * Archives an attacker would publish, built byte by byte at run time: tar entries of any type with any name
 * (node-tar and yazl refuse to write the hostile ones), zips whose names are patched after yazl wrote them, and
 * bombs. Every builder returns the archive's bytes, ready for a RegistryFixture to serve.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as yazl from 'yazl';

export type TarEntry =
  | { readonly type: 'file'; readonly name: string; readonly content?: Buffer | string; readonly mode?: number }
  | { readonly type: 'dir'; readonly name: string; readonly mode?: number }
  | { readonly type: 'symlink'; readonly name: string; readonly target: string }
  | { readonly type: 'hardlink'; readonly name: string; readonly target: string }
  | { readonly type: 'fifo'; readonly name: string };

const TYPE_FLAGS = { file: '0', hardlink: '1', symlink: '2', dir: '5', fifo: '6' } as const;

/** A plain (ustar) tar of exactly these entries, names and link targets written as given. */
export function tarOf(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const content = entry.type === 'file' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
    const defaultMode = entry.type === 'dir' ? 0o755 : entry.type === 'symlink' ? 0o777 : 0o644;
    const mode = 'mode' in entry && entry.mode !== undefined ? entry.mode : defaultMode;
    blocks.push(tarHeader(entry.name, TYPE_FLAGS[entry.type], mode, content.length, 'target' in entry ? entry.target : ''));
    blocks.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

function tarHeader(name: string, typeFlag: string, mode: number, size: number, linkName: string): Buffer {
  const header = Buffer.alloc(512);
  const put = (text: string, offset: number, length: number): void => void header.write(text, offset, length, 'utf8');
  const octal = (value: number, length: number): string => `${value.toString(8).padStart(length - 1, '0')}\0`;
  if (Buffer.byteLength(name) > 100 || Buffer.byteLength(linkName) > 100) throw new Error(`tar name too long: ${name}`);
  put(name, 0, 100);
  put(octal(mode, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(1_700_000_000, 12), 136, 12);
  put('        ', 148, 8);
  put(typeFlag, 156, 1);
  put(linkName, 157, 100);
  put('ustar\u000000', 257, 8);
  let sum = 0;
  for (const byte of header) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return header;
}

export const tarGzOf = (entries: readonly TarEntry[]): Buffer => gzipSync(tarOf(entries), { level: 9 });

/** bzip2 has no kept JS compressor: the system's bzip2 (undefined where there is none). */
export function bzip2Of(bytes: Buffer): Buffer | undefined {
  const work = mkdtempSync(path.join(tmpdir(), 'acp-bz2-'));
  try {
    const file = path.join(work, 'archive.tar');
    writeFileSync(file, bytes);
    const result = spawnSync('bzip2', ['-9', file]);
    return result.status === 0 ? readFileSync(`${file}.bz2`) : undefined;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export type ZipEntry =
  | { readonly type: 'file'; readonly name: string; readonly content: Buffer | string; readonly mode?: number }
  | { readonly type: 'symlink'; readonly name: string; readonly target: string };

/**
 * A zip of these entries. `rename` patches names after yazl wrote them (yazl refuses `..`, absolute names and
 * backslashes): each key is replaced by its value, which must have the same length, wherever it occurs.
 */
export function zipOf(entries: readonly ZipEntry[], rename: Readonly<Record<string, string>> = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.type === 'file') zip.addBuffer(Buffer.from(entry.content), entry.name, { mode: 0o100000 | (entry.mode ?? 0o644) });
    else zip.addBuffer(Buffer.from(entry.target), entry.name, { mode: 0o120777, compress: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => {
      let text = Buffer.concat(chunks).toString('latin1');
      for (const [from, to] of Object.entries(rename)) {
        if (from.length !== to.length) throw new Error(`rename ${from} -> ${to}: lengths differ`);
        text = text.replaceAll(from, to);
      }
      resolve(Buffer.from(text, 'latin1'));
    });
    zip.end();
  });
}

/** The launcher every hostile archive also carries, so a refusal is never "the command is missing". */
export const LAUNCHER = { name: 'bin/acp-agent', content: '#!/bin/sh\necho hi\n' } as const;
