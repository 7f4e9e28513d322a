/**
 * Registry icons for the Add Agent list: downloaded once from a local server into the cache, shown from there
 * offline; anything that is not a small SVG or PNG over an allowed address is left out, and a slow server only
 * costs the icons it has not sent in time.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { cachedIcons } from '../../../../src/agents/registry/registry-icons';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="6"/></svg>';

describe('registry icons', () => {
  let server: Server;
  let base = '';
  let cacheDir = '';
  let requests = 0;
  beforeEach(async () => {
    cacheDir = mkdtempSync(path.join(tmpdir(), 'acp-icons-'));
    requests = 0;
    server = createServer((request, response) => {
      requests++;
      if (request.url === '/agent.svg') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG);
      else if (request.url === '/page.html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>');
      else if (request.url === '/huge.png') response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300 * 1024));
      else if (request.url === '/slow.svg') setTimeout(() => response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG), 2000);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('keeps a small SVG and shows it from the cache afterwards, without asking the server again', async () => {
    const first = await cachedIcons([`${base}/agent.svg`], { cacheDir });
    const file = first.get(`${base}/agent.svg`);
    assert.ok(file?.endsWith('.svg'), 'kept as an svg');
    assert.equal(readFileSync(file ?? '', 'utf8'), SVG);
    const again = await cachedIcons([`${base}/agent.svg`], { cacheDir });
    assert.equal(again.get(`${base}/agent.svg`), file);
    assert.equal(requests, 1, 'the second list used the cache');
  });

  it('leaves out what is not an icon, too big, missing, not allowed, or too slow', async () => {
    const addresses = [
      `${base}/page.html`,
      `${base}/huge.png`,
      `${base}/gone.svg`,
      'http://example.com/x.svg',
      'file:///etc/passwd',
      `${base}/slow.svg`,
    ];
    const started = Date.now();
    const icons = await cachedIcons([...addresses, `${base}/agent.svg`], { cacheDir, timeoutMs: 500 });
    assert.deepEqual([...icons.keys()], [`${base}/agent.svg`]);
    assert.ok(Date.now() - started < 1500, 'a slow server does not hold the list');
  });
});
