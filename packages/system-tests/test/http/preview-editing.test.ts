import { describe, expect, it } from 'vitest';
import { jsonOf } from './harness.js';
import { startOwnerServer } from './file-server.js';
import type { Json } from './harness.js';

// The social preview on the link page's form and on the preview page `+` (decisions §19, issue 41),
// without script: the form saves it, the card shows what is saved.

const { server, owner, ownLink, postEdit } = await startOwnerServer('previewer');

const detailOf = async (link: Json) => jsonOf(await owner.send(`/api/v1/links/${String(link.id)}`));

describe('the social preview on the pages (decisions §19)', () => {
  it('saves, replaces and removes the preview from the link page’s form', async () => {
    const link = await ownLink({ url: 'https://example.com/sale', title: 'Sale' });
    const edit = `/account/links/${String(link.id)}/edit`;
    const form = { url: 'https://example.com/sale', title: 'Sale', redirect_status: '302' };
    const page = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(page).toContain('id="edit-preview_title"');
    expect(page).toContain('<p class="social-title">Sale</p>'); // the title robots fall back to

    const saved = await owner.post(edit, {
      ...form,
      preview_title: 'Summer sale',
      preview_description: 'Half price, this week only',
      preview_image: 'https://cdn.example.com/sale.png',
    });
    expect(saved.status).toBe(303);
    expect((await detailOf(link)).preview).toEqual({
      title: 'Summer sale',
      description: 'Half price, this week only',
      image: 'https://cdn.example.com/sale.png',
    });
    const shown = await (await owner.send(`/account/links/${String(link.id)}`)).text();
    expect(shown).toContain('<p class="social-title">Summer sale</p>');
    expect(shown).toContain('Image from cdn.example.com');
    // the image is named, never loaded: no <img> the pages' CSP would leave broken (issue 52)
    const card = /<figure\s+class="social-card"[\s\S]*?<\/figure>/.exec(shown)?.[0] ?? '';
    expect(card).toContain('Image from cdn.example.com');
    expect(card).not.toContain('<img');

    // a post without the preview's fields leaves it alone; all three empty remove it
    expect((await owner.post(edit, { url: 'https://example.com/sale' })).status).toBe(303);
    expect((await detailOf(link)).preview).not.toBeNull();
    const cleared = { ...form, preview_title: '', preview_description: '', preview_image: '' };
    expect((await owner.post(edit, cleared)).status).toBe(303);
    expect((await detailOf(link)).preview).toBeNull();
  });

  it('refuses an image that is not https, with the field marked and what was typed kept', async () => {
    const link = await ownLink({ url: 'https://example.com/img' });
    const refused = await postEdit(link, {
      preview_title: 'Kept',
      preview_image: 'http://cdn.example.com/a.png',
    });
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toMatch(
      /name="preview_image"\s+value="http:\/\/cdn\.example\.com\/a\.png"[^>]*aria-invalid="true"/,
    );
    expect(page).toContain('value="Kept"');
  });

  it('shows the card on the preview page when the link has a preview, and none otherwise', async () => {
    const plain = await ownLink({ url: 'https://example.com/plain' });
    expect(await (await server.visit(`${String(plain.short_url)}+`)).text()).not.toContain('social-card');
    const link = await ownLink({
      url: 'https://example.com/card',
      preview: { title: 'A card', description: 'Seen in chats' },
    });
    const page = await (await server.visit(`${String(link.short_url)}+`)).text();
    expect(page).toContain('<p class="social-title">A card</p>');
    expect(page).toContain('Seen in chats');
  });
});
