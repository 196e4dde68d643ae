import { describe, expect, it } from 'vitest';
import { startFileServer } from './file-server.js';
import { createLink, eventually, expectError, jsonOf } from './harness.js';
import { expectRefusedEach } from './refusals.js';

// Decisions §19 "Social previews": link-preview robots get a card of Open Graph and Twitter tags, every
// value escaped; people are redirected as always; the image is checked like a destination.

const server = await startFileServer();

/** The User-Agents the named unfurlers send. */
const UNFURLERS = {
  Slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  Twitterbot: 'Twitterbot/1.0',
  facebookexternalhit: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  LinkedInBot: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  Discordbot: 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  WhatsApp: 'WhatsApp/2.23.20.0 A',
  TelegramBot: 'TelegramBot (like TwitterBot)',
};
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
];
const PREVIEW = {
  title: 'Summer sale "50%" <off>',
  description: 'Everything must go & more',
  image: 'https://images.example/card.png',
};

describe('social previews (decisions §19)', () => {
  it('shows the card to each unfurler and redirects people', async () => {
    const link = await createLink(server, { url: 'https://example.com/sale', preview: PREVIEW });
    expect(link.preview).toEqual(PREVIEW);
    for (const [name, ua] of Object.entries(UNFURLERS)) {
      const answer = await server.visit(link.short_url, { headers: { 'user-agent': ua } });
      expect(answer.status, name).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      const page = await answer.text();
      expect(page, name).toContain(
        '<meta property="og:title" content="Summer sale &#34;50%&#34; &#60;off&#62;"',
      );
      expect(page).toContain('<meta property="og:image" content="https://images.example/card.png"');
      expect(page).toContain('<meta name="twitter:card" content="summary_large_image"');
      expect(page).toContain('href="https://example.com/sale"');
    }
    for (const ua of BROWSERS) {
      const answer = await server.visit(link.short_url, { headers: { 'user-agent': ua } });
      expect(answer.status, ua).toBe(302);
      expect(answer.headers.get('location')).toBe('https://example.com/sale');
    }
    // unfurlers count as bots, people as clicks
    await eventually(async () => {
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`));
      expect({ total: stats.total, bots: stats.bots }).toEqual({ total: 3, bots: 7 });
    });
  });

  it('sends Vary: User-Agent where answers differ by it: a preview’s card and redirect, rules by OS', async () => {
    const link = await createLink(server, { url: 'https://example.com/vary', preview: PREVIEW });
    const card = await server.visit(link.short_url, { headers: { 'user-agent': UNFURLERS.Slackbot } });
    const redirect = await server.visit(link.short_url, { headers: { 'user-agent': BROWSERS[0]! } });
    expect([card.status, card.headers.get('vary')]).toStrictEqual([200, 'User-Agent']);
    expect([redirect.status, redirect.headers.get('vary')]).toStrictEqual([302, 'User-Agent']);
    // so do a link's rules on the device or the OS; a plain link answers everyone alike
    const rules = [{ when: { os: 'ios' }, url: 'https://example.com/ios' }];
    const byOs = await createLink(server, { url: 'https://example.com/os', rules });
    const routed = await server.visit(byOs.short_url, { headers: { 'user-agent': BROWSERS[1]! } });
    expect([routed.headers.get('location'), routed.headers.get('vary')]).toStrictEqual([
      'https://example.com/ios',
      'User-Agent',
    ]);
    const plain = await createLink(server, { url: 'https://example.com/plain' });
    const same = await server.visit(plain.short_url, { headers: { 'user-agent': UNFURLERS.Slackbot } });
    expect([same.status, same.headers.get('vary')]).toStrictEqual([302, null]);
  });

  it('redirects unfurlers of a link without a preview, and escapes every field it shows', async () => {
    const plain = await createLink(server, { url: 'https://example.com/plain' });
    expect(plain.preview).toBeNull();
    const unfurled = await server.visit(plain.short_url, { headers: { 'user-agent': UNFURLERS.Slackbot } });
    expect(unfurled.status).toBe(302);
    const attack = '"><script>alert(1)</script><img src=x onerror=alert(2)>';
    const hostile = await createLink(server, {
      url: 'https://example.com/x?a=1&b="2"',
      preview: { title: attack, description: attack },
    });
    const page = await (
      await server.visit(hostile.short_url, { headers: { 'user-agent': UNFURLERS.Twitterbot } })
    ).text();
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<img');
    expect(page).toContain('&#60;script&#62;');
    expect(page).toContain('<meta name="twitter:card" content="summary"');
  });

  it('checks the image like a destination, and an update replaces or removes the preview', async () => {
    await expectRefusedEach(server, 'preview.image', (image) => ({ preview: { image } }), [
      ['http://images.example/card.png', 'invalid_url'],
      ['https://127.0.0.1/card.png', 'private_host'],
      ['javascript:alert(1)', 'unsupported_scheme'],
    ]);
    const tooLong = await server.api('/api/v1/links', {
      json: { url: 'https://example.com/', preview: { title: 'x'.repeat(121) } },
    });
    await expectError(tooLong, 400, 'invalid_request');
    const account = await server.createAccount('previewer');
    const link = await createLink(
      server,
      { url: 'https://example.com/p', preview: { title: 'Old' } },
      { key: account.key },
    );
    const patch = (preview: unknown) =>
      server.api(`/api/v1/links/${link.id}`, { method: 'PATCH', key: account.key, json: { preview } });
    expect((await jsonOf(await patch({ description: 'New' }))).preview).toEqual({
      title: null,
      description: 'New',
      image: null,
    });
    expect((await jsonOf(await patch(null))).preview).toBeNull();
  });
});
