import { describe, expect, it } from 'vitest';
import { pageOf } from './browser-session.js';
import { startOwnerServer } from './file-server.js';

// decisions §15 on the pages: tags on /account, tags and rules on a link's page, every destination on
// the preview.

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const { server, owner, ownLink, postEdit, saveEdit } = await startOwnerServer('organiser');

describe('tags and rules on the pages (decisions §15)', () => {
  it('shows each link’s tags on /account and filters the list by one', async () => {
    const tagged = await ownLink({ url: 'https://example.com/tagged', title: 'Tagged one', tags: ['promo'] });
    await ownLink({ url: 'https://example.com/plain', title: 'Plain one' });
    const all = await (await owner.send('/account')).text();
    expect(all).toContain('href="/account?tag=promo"');
    expect(all).toContain('Plain one');
    const filtered = await (await owner.send('/account?tag=promo')).text();
    expect(filtered).toContain('id="tag-filter"');
    expect(filtered).toContain(`/account/links/${String(tagged.id)}`);
    expect(filtered).not.toContain('Plain one');
  });

  it('edits tags and rules on the link page with a plain form, one row per rule', async () => {
    const link = await ownLink({
      url: 'https://example.com/page',
      rules: [{ when: { os: 'ios' }, url: 'https://apps.example/ios' }],
    });
    const page = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(page).toMatch(/name="rule_0_url"\s+value="https:\/\/apps\.example\/ios"/);
    expect(page).toMatch(/name="rule_0_os_ios"\s+value="on"\s+data-word="ios"\s+checked/);
    expect(page).toContain('id="rules-add"'); // a button to add one
    const detail = await saveEdit(link, {
      tags: 'Summer, print',
      rule_0_url: '',
      rule_1_url: 'https://example.de/',
      rule_1_language: 'de',
      rule_2_url: 'https://example.at/',
      rule_2_country: 'at, ch',
      redirect_status: '307',
      crawlable: 'on',
    });
    expect(detail).toMatchObject({
      tags: ['Summer', 'print'],
      rules: [
        { when: { language: ['de'] }, url: 'https://example.de/' },
        { when: { country: ['AT', 'CH'] }, url: 'https://example.at/' },
      ],
      redirect_status: 307,
      crawlable: true,
      forward_query: false,
    });
    const refused = await postEdit(link, { rule_0_url: 'http://127.0.0.1/' });
    expect(await pageOf(refused, 400)).toContain('value="http://127.0.0.1/"');
  });

  it('lists every destination on the preview, and the rule that answered in the statistics', async () => {
    const link = await ownLink({
      url: 'https://example.com/fallback',
      rules: [{ when: { os: ['ios', 'android'] }, url: 'https://apps.example/' }],
    });
    const preview = await (await server.visit(`${String(link.short_url)}+`)).text();
    expect(preview).toContain('id="destinations"');
    expect(preview).toContain('iOS or Android</span> →');
    expect(preview).toContain('https://apps.example/');
    expect(preview).toContain('https://example.com/fallback');
    await server.visit(String(link.short_url), { headers: { 'user-agent': IPHONE } });
    await server.visit(String(link.short_url));
    const page = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(page).toContain('Redirect rules');
    // labelled by what the rule says, numbered as the preview's list numbers them (issue 42)
    expect(page).toContain('1. iOS or Android → apps.example');
    expect(page).toContain('Otherwise → example.com/fallback');
  });
});
