import { expect, it } from 'vitest';
import {
  clipboardContext,
  clipboardOf,
  describeInChromium,
  expectAccessible,
  screenshot,
  signInByInvite,
  watchedPage,
  fitsThePhone,
} from './browser.js';

// Teams in Chromium on a phone (decisions §21): a person makes a team and copies an invite link; a
// second person opens it signed in and joins, acts for the team with the switcher and makes a link that
// the list shows with their name. Nothing is wider than the phone.

describeInChromium('teams in Chromium', { timeout: 90_000 }, ({ server, browser }) => {
  it('on a phone: make a team, copy an invite, join it, switch to it and make a link for it', async () => {
    const ownerContext = await clipboardContext(browser(), 'phone', [server().baseUrl]);
    const { page: owner, problems } = await watchedPage(ownerContext);
    await signInByInvite(owner, server(), 'olga');
    await owner.getByRole('link', { name: 'Teams' }).click();
    await owner.waitForURL(/\/account\/teams$/);
    await expectAccessible(owner, '/account/teams');
    await owner.getByLabel('Team name').fill('acme');
    await owner.getByRole('button', { name: 'Make team' }).click();
    await owner.waitForURL(/\/account\/teams\?team=acme&done=created$/);
    await expect.poll(() => owner.locator('#teams-notice').textContent()).toContain('Team acme made');
    await owner.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.getByRole('button', { name: 'Make invite link' }).click();
    const url = ((await owner.locator('#invite-url').textContent()) ?? '').trim();
    expect(url).toMatch(/\/join\/tinv_[0-9A-Za-z]{32}$/);
    await owner.getByRole('button', { name: `Copy ${url}` }).click();
    await expect.poll(() => clipboardOf(owner)).toBe(url);
    expect(await fitsThePhone(owner)).toBe(true);
    await expectAccessible(owner, '/account/teams with an invite link');
    await screenshot(owner, 'teams-phone-invite');

    const memberContext = await clipboardContext(browser(), 'phone', [server().baseUrl]);
    const { page: member, problems: memberProblems } = await watchedPage(memberContext);
    await signInByInvite(member, server(), 'mario');
    await member.goto(url);
    await member.waitForURL(/\/account\/teams\?team=acme&done=joined&role=editor$/);
    await expect
      .poll(() => member.locator('#teams-notice').textContent())
      .toContain('You joined acme as editor');

    await member.goto(`${server().baseUrl}/account`);
    await member.getByLabel('Act for').selectOption('acme');
    await member.getByRole('button', { name: 'Switch' }).click();
    await member.waitForURL(`${server().baseUrl}/account`);
    await expect
      .poll(() => member.locator('#acting-for').textContent())
      .toContain('Acting for acme (editor)');
    expect(await fitsThePhone(member)).toBe(true);
    await expectAccessible(member, '/account acting for a team');

    await member.locator('#create-form').getByLabel('Long URL').fill('https://example.com/acme-launch');
    await member.locator('#create-form').getByRole('button').click();
    await member.waitForURL(/\/account\/links\/[0-9a-f-]{36}\?done=created$/);
    await expect.poll(() => member.locator('#who-did').textContent()).toContain('Created by mario');
    expect(await fitsThePhone(member)).toBe(true);
    await member.getByRole('link', { name: 'Back to your links' }).first().click();
    const row = member.locator('#links li').filter({ hasText: 'https://example.com/acme-launch' });
    await expect.poll(() => row.locator('.created-by').textContent()).toBe('by mario');
    await screenshot(member, 'teams-phone-acting');

    // the owner, still acting for herself, sees the team's link only once she switches to it
    await owner.goto(`${server().baseUrl}/account`);
    expect(await owner.locator('#links').getByText('https://example.com/acme-launch').count()).toBe(0);
    await owner.getByLabel('Act for').selectOption('acme');
    await owner.getByRole('button', { name: 'Switch' }).click();
    await expect
      .poll(() => owner.locator('#links').getByText('https://example.com/acme-launch').count())
      .toBe(1);
    expect([...problems, ...memberProblems]).toEqual([]);
    await ownerContext.close();
    await memberContext.close();
  });
});
