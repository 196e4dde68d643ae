import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@shortener/app';
import { startTestServer, tempFile } from './harness.js';
import type { TestServer } from './harness.js';

// Decisions §19: the app-links files on every short domain, as written, never a redirect.

const APPLE = JSON.stringify({
  applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/*' }] }] },
});
const ANDROID = `[{
  "relation": ["delegate_permission/common.handle_all_urls"],
  "target": { "namespace": "android_app", "package_name": "com.example.app",
    "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"] }
}]
`;
const PATHS = {
  '/.well-known/apple-app-site-association': APPLE,
  '/.well-known/assetlinks.json': ANDROID,
};

let server: TestServer;
let plain: TestServer;
beforeAll(async () => {
  [server, plain] = await Promise.all([
    startTestServer({
      APPLE_APP_SITE_ASSOCIATION: tempFile('apple-app-site-association', APPLE),
      ANDROID_ASSET_LINKS: tempFile('assetlinks.json', ANDROID),
    }),
    startTestServer(),
  ]);
});
afterAll(() => Promise.all([server.close(), plain.close()]));

describe('app links (decisions §19)', () => {
  it('serves each file as written, as application/json, on every short domain', async () => {
    for (const host of [server.hostA, server.hostB])
      for (const [path, text] of Object.entries(PATHS)) {
        const answer = await server.visit(`http://${host}${path}`);
        expect([host, path, answer.status, answer.headers.get('location')]).toEqual([host, path, 200, null]);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
        expect(await answer.text()).toBe(text);
      }
  });

  it('answers HEAD with the headers and no body', async () => {
    for (const path of Object.keys(PATHS)) {
      const answer = await server.visit(`http://${server.hostB}${path}`, { method: 'HEAD' });
      expect([path, answer.status]).toEqual([path, 200]);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await answer.text()).toBe('');
    }
  });

  it('refuses other methods with 405', async () => {
    for (const path of Object.keys(PATHS)) {
      const answer = await server.visit(`http://${server.hostA}${path}`, { method: 'POST', body: '' });
      expect([path, answer.status, answer.headers.get('allow')]).toEqual([path, 405, 'GET, HEAD']);
    }
  });

  it('answers 404 where the setting is unset', async () => {
    for (const path of Object.keys(PATHS)) {
      const answer = await plain.visit(`http://${plain.hostA}${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });

  it('refuses to start on a file that is not JSON, naming the setting', () => {
    const broken = tempFile('assetlinks.json', '[{ "relation": ');
    expect(() => loadConfig({ ANDROID_ASSET_LINKS: broken })).toThrow(ConfigError);
    expect(() => loadConfig({ ANDROID_ASSET_LINKS: broken })).toThrow(
      /^ANDROID_ASSET_LINKS must name a file of JSON \(.+\) \(got ".+assetlinks\.json"\)$/,
    );
  });
});
