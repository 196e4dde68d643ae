import { describe, expect, it } from 'vitest';
import { pageOf } from './browser-session.js';
import { jsonOf } from './harness.js';
import { startOwnerServer } from './file-server.js';

// The link page's rules editor without script (issue 42): its row buttons post the form and get it back
// changed, nothing saved; the save takes ticked devices and OSes, picked countries, query pairs.

const { server, owner, ownLink, postEdit, saveEdit } = await startOwnerServer('rule-editor');

const RULES = [
  { when: { os: 'ios', country: 'AT' }, url: 'https://apps.apple.com/app/1' },
  { when: { language: 'de' }, url: 'https://example.de/' },
];

describe('the rules editor without script (issue 42)', () => {
  it('shows each rule as one collapsed line that says it', async () => {
    const link = await ownLink({ url: 'https://example.com/r', rules: RULES });
    const page = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(page).toContain('iOS in Austria → apps.apple.com/app/1');
    expect(page).toContain('Reading German → example.de');
    expect(page).not.toMatch(/<li class="rule" id="rule-0">\s*<details open/);
    expect(page).toContain('<option value="Austria (AT)">');
    // in the page's language: the lines, and the names in the searchable lists
    const german = await (await owner.send(`/account/links/${String(link.id)}?lang=de`)).text();
    expect(german).toContain('iOS in Österreich → apps.apple.com/app/1');
    expect(german).toContain('<option value="Österreich (AT)">');
    expect(german).toContain('<option value="Deutsch (de)">');
  });

  it('adds, moves and removes rows one post at a time without saving', async () => {
    const link = await ownLink({ url: 'https://example.com/rows', rules: RULES });
    const edit = `/account/links/${String(link.id)}/edit`;
    const form = {
      url: 'https://example.com/rows',
      redirect_status: '302',
      rule_0_url: 'https://apps.apple.com/app/1',
      rule_0_os_ios: 'on',
      rule_0_country: 'AT',
      rule_1_url: 'https://example.de/',
      rule_1_language: 'de',
    };
    const added = await owner.post(edit, { ...form, rule_action: 'add' });
    expect(added.status).toBe(200);
    const addedPage = await added.text();
    expect(addedPage).toMatch(
      /id="edit-rule_2_url"\s+name="rule_2_url"\s+value=""\s+autocomplete="off"\s+inputmode="url"\s+autofocus/,
    );
    const moved = await (await owner.post(edit, { ...form, rule_action: 'down:0' })).text();
    expect(moved).toMatch(/name="rule_0_url"\s+value="https:\/\/example\.de\/"/);
    expect(moved).toMatch(/name="rule_1_url"\s+value="https:\/\/apps\.apple\.com\/app\/1"/);
    expect(moved).toMatch(/id="rule-1-summary"\s+autofocus/);
    const removed = await (await owner.post(edit, { ...form, rule_action: 'remove:0' })).text();
    expect(removed).toMatch(/name="rule_0_url"\s+value="https:\/\/example\.de\/"/);
    expect(removed).not.toContain('name="rule_1_url"');
    const more = await (
      await owner.post(edit, {
        ...form,
        rule_0_query_0_key: 'ref',
        rule_0_query_0_value: 'a',
        rule_action: 'more:0',
      })
    ).text();
    expect(more).toContain('name="rule_0_query_1_key"');
    // nothing was saved by any of them
    expect((await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`))).rules).toHaveLength(2);
  });

  it('saves ticked devices and OSes, picked countries and languages, query pairs and times', async () => {
    const link = await ownLink({ url: 'https://example.com/save' });
    const detail = await saveEdit(link, {
      rule_0_url: 'https://apps.apple.com/app/2',
      rule_0_device_mobile: 'on',
      rule_0_device_tablet: 'on',
      rule_0_os_ios: 'on',
      rule_0_country: 'Austria (AT), de',
      rule_0_language: 'German (de)',
      rule_0_query_0_key: 'ref',
      rule_0_query_0_value: 'mail',
      rule_0_query_1_key: '',
      rule_0_query_1_value: '',
      rule_0_after: '2026-12-01T10:00',
      rule_1_url: '',
    });
    expect(detail.rules).toEqual([
      {
        when: {
          device: ['mobile', 'tablet'],
          os: ['ios'],
          country: ['AT', 'DE'],
          language: ['de'],
          query: { ref: 'mail' },
          after: '2026-12-01T10:00:00.000Z',
        },
        url: 'https://apps.apple.com/app/2',
      },
    ]);
  });

  it('opens the row an error is about and marks its field, keeping what was typed', async () => {
    const link = await ownLink({ url: 'https://example.com/bad' });
    const refused = await postEdit(link, {
      rule_0_url: 'https://example.at/',
      rule_0_country: 'AT',
      rule_1_url: '',
      rule_2_url: 'https://example.zz/',
      rule_2_country: 'ZZ',
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    // the second rule sent (rules.1) is the third row, the empty one being no rule: it is shown open
    expect(page).toMatch(/<li class="rule" id="rule-2">\s*<details open/);
    expect(page).toMatch(
      /name="rule_2_country"\s+value="ZZ"[^>]*aria-describedby="edit-rule_2_country-hint edit-notice"\s*aria-invalid="true"/,
    );
    expect(page).not.toMatch(/<li class="rule" id="rule-0">\s*<details open/);
    // the message names the row as the editor numbers it, not core's count of the rules sent
    expect(page).toContain('Rule 3: Not an assigned ISO 3166-1 alpha-2 country code.');
    expect(page).not.toContain('rules.1.when');
  });

  it('refuses a rule without a condition, naming its row: it would match everyone (issue 52)', async () => {
    const link = await ownLink({ url: 'https://example.com/none' });
    const everyone = { rule_0_url: '', rule_1_url: 'https://example.com/everyone' };
    const page = await pageOf(await postEdit(link, everyone), 400);
    // core counts the rules sent (the first); the page names the row as the editor numbers it
    expect(page).toContain('Rule 2 has no condition: it would match everyone and hide the rules after it.');
    expect(page).toMatch(/<li class="rule" id="rule-1">\s*<details open/);
    expect((await jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`))).rules).toEqual([]);
  });

  it('names each rule by its destination’s path on the link page and the public preview (issue 52)', async () => {
    const link = await ownLink({
      url: 'https://example.com/en/pricing',
      rules: [{ when: { country: ['DE', 'AT'] }, url: 'https://example.com/de/pricing' }],
    });
    const page = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(page).toContain('In Germany or Austria → example.com/de/pricing');
    const preview = await (await server.visit(`${String(link.short_url)}+`)).text();
    // the preview words the rule as the link page does, the whole URL on hover
    expect(preview).toMatch(
      /<span class="conditions">In Germany or Austria<\/span> →\s*<span class="destination" title="https:\/\/example\.com\/de\/pricing">example\.com\/de\/pricing<\/span>/,
    );
    expect(preview).toMatch(
      /Otherwise<\/span> →\s*<span class="destination"[^>]*>example\.com\/en\/pricing</,
    );
    expect(page + preview).not.toContain('example.com/…');
  });
});
