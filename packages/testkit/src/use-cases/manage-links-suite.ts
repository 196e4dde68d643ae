import type { Stores } from '@shortener/core';
import {
  checkAlias,
  claimLinks,
  createLink,
  deleteLink,
  getLink,
  linkStatus,
  listLinks,
  setLinkDisabled,
  updateLink,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { givenAccount } from '../fresh-stores.js';
import type { Harness } from './core-harness.js';
import { codeOf, useCoreHarness, valueOf, withAccount, withToken } from './core-harness.js';

const anonymous = withToken(null);

async function anonymousLink(h: Harness, input: Partial<Parameters<typeof createLink>[1]> = {}) {
  return valueOf(await createLink(h, { url: 'https://a.example/page', ...input }, anonymous));
}

/** Detail, update, delete, list, alias check, claim and the operator's switch, through core on a real store. */
export function describeManageLinksSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: managing links`, () => {
    const harness = useCoreHarness(open);

    it('shows a link to its edit token, refuses others and reports unknown ids', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h);
      expect(valueOf(await getLink(h, link.id, withToken(editToken))).id).toBe(link.id);
      expect(codeOf(await getLink(h, link.id, anonymous))).toBe('forbidden');
      expect(codeOf(await getLink(h, link.id, withToken('et_00000000000000000000000000000000')))).toBe(
        'forbidden',
      );
      expect(codeOf(await getLink(h, '00000000-0000-4000-8000-000000000000', withToken(editToken)))).toBe(
        'not_found',
      );
      expect(codeOf(await getLink(h, 'not-a-uuid', withToken(editToken)))).toBe('not_found');
    });

    it('refuses another account access to a link', async () => {
      const h = harness();
      const owner = await givenAccount(h.stores, { name: 'owner' });
      const stranger = await givenAccount(h.stores, { name: 'stranger', id: 'acc-stranger' });
      const { link } = valueOf(await createLink(h, { url: 'https://a.example' }, withAccount(owner.id)));
      expect(codeOf(await updateLink(h, link.id, { title: 'x' }, withAccount(stranger.id)))).toBe(
        'forbidden',
      );
      expect(codeOf(await deleteLink(h, link.id, withAccount(stranger.id)))).toBe('forbidden');
      expect(valueOf(await getLink(h, link.id, withAccount(owner.id))).id).toBe(link.id);
    });

    it('applies a PATCH: given fields change, absent ones stay, null removes', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h, { title: 'T', max_clicks: 3, password: 'secret1' });
      h.clock.advance(1000);
      const patched = valueOf(
        await updateLink(
          h,
          link.id,
          { title: null, max_clicks: null, password: '', url: 'b.example' },
          withToken(editToken),
        ),
      );
      expect(patched).toMatchObject({
        title: null,
        maxClicks: null,
        passwordHash: null,
        url: 'https://b.example/',
      });
      expect(patched.updatedAt).toBe(link.createdAt + 1000);
      expect(patched.slug).toBe(link.slug);
    });

    it('re-activates an expired link when the expiry moves into the future', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h, { expires_in_days: 1 });
      h.clock.advance(2 * 86_400_000);
      expect(linkStatus(link, h.clock.now())).toBe('expired');
      const patched = valueOf(await updateLink(h, link.id, { expires_in_days: 5 }, withToken(editToken)));
      expect(linkStatus(patched, h.clock.now())).toBe('active');
      const cleared = valueOf(await updateLink(h, link.id, { expires_at: null }, withToken(editToken)));
      expect(cleared.expiresAt).toBeNull();
    });

    it('sets and removes starts_at, and refuses one at or after the expiry on starts_at', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h, { expires_at: '2030-01-01T00:00:00Z' });
      const as = withToken(editToken);
      const set = valueOf(await updateLink(h, link.id, { starts_at: '2029-06-01T00:00:00+02:00' }, as));
      expect(set.startsAt).toBe(Date.parse('2029-05-31T22:00:00Z'));
      const late = await updateLink(h, link.id, { starts_at: '2030-01-01T00:00:00Z' }, as);
      expect(late.ok ? null : [late.error.code, late.error.field]).toEqual(['invalid_request', 'starts_at']);
      const early = await updateLink(h, link.id, { expires_at: '2029-01-01T00:00:00Z' }, as);
      expect(early.ok ? null : early.error.field).toBe('starts_at');
      expect(valueOf(await updateLink(h, link.id, { starts_at: null }, as)).startsAt).toBeNull();
      const created = await createLink(
        h,
        { url: 'https://a.example/', starts_at: '2031-01-01T00:00:00Z', expires_at: '2030-01-01T00:00:00Z' },
        anonymous,
      );
      expect(created.ok ? null : [created.error.code, created.error.field]).toEqual([
        'invalid_request',
        'starts_at',
      ]);
    });

    it('refuses a PATCH with both expiry fields or a bad URL', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h);
      const both = { expires_in_days: 1, expires_at: '2030-01-01T00:00:00Z' };
      expect(codeOf(await updateLink(h, link.id, both, withToken(editToken)))).toBe('invalid_request');
      expect(codeOf(await updateLink(h, link.id, { url: 'http://localhost/' }, withToken(editToken)))).toBe(
        'private_host',
      );
    });

    it('deletes a link for its edit token, after which it is gone', async () => {
      const h = harness();
      const { link, editToken } = await anonymousLink(h);
      expect(codeOf(await deleteLink(h, link.id, anonymous))).toBe('forbidden');
      valueOf(await deleteLink(h, link.id, withToken(editToken)));
      expect(codeOf(await getLink(h, link.id, withToken(editToken)))).toBe('not_found');
    });

    it('lists only the account links, newest first, page by page with a cursor and a filter', async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      for (let i = 0; i < 5; i++) {
        h.clock.advance(1000);
        valueOf(
          await createLink(
            h,
            { url: `https://a.example/${i}`, title: i === 3 ? 'Needle' : null },
            withAccount(account.id),
          ),
        );
      }
      await anonymousLink(h);
      const first = valueOf(await listLinks(h, { limit: 2 }, withAccount(account.id)));
      expect(first.links.map((l) => l.url)).toEqual(['https://a.example/4', 'https://a.example/3']);
      const second = valueOf(
        await listLinks(h, { limit: 2, cursor: first.nextCursor! }, withAccount(account.id)),
      );
      const third = valueOf(
        await listLinks(h, { limit: 2, cursor: second.nextCursor! }, withAccount(account.id)),
      );
      expect(third.links.map((l) => l.url)).toEqual(['https://a.example/0']);
      expect(third.nextCursor).toBeNull();
      const found = valueOf(await listLinks(h, { limit: 50, q: 'needle' }, withAccount(account.id)));
      expect(found.links.map((l) => l.title)).toEqual(['Needle']);
      expect(codeOf(await listLinks(h, { limit: 2 }, anonymous))).toBe('unauthorized');
      expect(codeOf(await listLinks(h, { limit: 2, cursor: 'garbage' }, withAccount(account.id)))).toBe(
        'invalid_request',
      );
    });

    it('checks aliases: free, taken with the other domain as alternative, reserved, invalid', async () => {
      const h = harness();
      await anonymousLink(h, { alias: 'taken' });
      expect(valueOf(await checkAlias(h, { slug: 'Fresh' }))).toEqual({
        slug: 'fresh',
        domain: 'sho.rt',
        status: 'free',
        alternative: null,
      });
      expect(valueOf(await checkAlias(h, { slug: 'taken' }))).toMatchObject({
        status: 'taken',
        alternative: 'alt.example',
      });
      await anonymousLink(h, { alias: 'taken', domain: 'alt.example' });
      expect(valueOf(await checkAlias(h, { slug: 'taken' }))).toMatchObject({
        status: 'taken',
        alternative: null,
      });
      expect(valueOf(await checkAlias(h, { slug: 'admin' })).status).toBe('reserved');
      expect(valueOf(await checkAlias(h, { slug: 'a!' })).status).toBe('invalid');
      expect(codeOf(await checkAlias(h, { slug: 'ok', domain: 'nope.example' }))).toBe('domain_invalid');
    });

    it('claims anonymous links by edit token; the token then stops working', async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const a = await anonymousLink(h);
      const b = await anonymousLink(h);
      const claimed = await claimLinks(
        h,
        [a.editToken!, b.editToken!, 'et_unknown', a.editToken!],
        withAccount(account.id),
      );
      expect(valueOf(claimed)).toBe(2);
      expect(valueOf(await claimLinks(h, [a.editToken!], withAccount(account.id)))).toBe(0);
      expect(codeOf(await getLink(h, a.link.id, withToken(a.editToken)))).toBe('forbidden');
      expect(valueOf(await getLink(h, a.link.id, withAccount(account.id))).accountId).toBe(account.id);
      expect(codeOf(await claimLinks(h, [a.editToken!], anonymous))).toBe('unauthorized');
      const tooMany = Array.from({ length: 1001 }, (_, i) => `et_${i}`);
      expect(codeOf(await claimLinks(h, tooMany, withAccount(account.id)))).toBe('too_many');
    });

    it('lets the operator disable and enable a link by id or short URL', async () => {
      const h = harness();
      const { link } = await anonymousLink(h, { alias: 'switch' });
      const disabled = valueOf(await setLinkDisabled(h, 'https://sho.rt/switch', true));
      expect(linkStatus(disabled, h.clock.now())).toBe('disabled');
      const enabled = valueOf(await setLinkDisabled(h, link.id, false));
      expect(linkStatus(enabled, h.clock.now())).toBe('active');
      expect(codeOf(await setLinkDisabled(h, 'https://sho.rt/nothing', true))).toBe('not_found');
    });
  });
}
