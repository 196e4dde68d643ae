import type { Language, LinkView } from '@shortener/core';
import { countText } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { listOrNone, pagerNav } from '../page-parts.js';
import { rowActions } from '../row-actions.js';
import { fill, textOf } from '../text.js';
import type { AccountHomeView } from './account-pages.js';
import type { AccountText } from './account-text.js';
import { healthBadge } from './health-section.js';
import { healthTextOf } from './health-text.js';
import { tagFilterLine, tagList } from './link-tags.js';
import { teamTextOf } from './team-text.js';

const dateOf = (language: Language, iso: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

/** A title-less link's name in the list: its path (`/summer`), so the short URL is not shown twice. */
const untitled = (link: LinkView): string => new URL(link.short_url).pathname;

/** The account's links: the search, a page of rows with their actions, and the pager. */
export function linksSection(view: AccountHomeView, t: AccountText): SafeHtml {
  const { language, q } = view;
  const tag = view.tag ?? '';
  const health = view.health ?? '';
  const pt = textOf(language);
  const filters = {
    ...(q === '' ? {} : { q }),
    ...(tag === '' ? {} : { tag }),
    ...(health === '' ? {} : { health }),
  };
  const query = (extra: Record<string, string>) =>
    `/account?${new URLSearchParams({ ...filters, ...extra }).toString()}`;
  const item = (link: LinkView) =>
    html`<li>
      <a class="link-title" href="/account/links/${link.id}">${link.title ?? untitled(link)}</a>
      <span class="short-url">${link.short_url}</span>
      <span class="link-target">${link.url ?? ''}</span>
      ${link.health.state === 'broken' || link.health.state === 'redirected' ? html`<span class="link-health">${healthBadge(language, link)}</span>` : ''}
      <span class="link-meta"
        >${countText(language, link.clicks, pt.click[0], pt.click[1])} ·
        ${link.status === 'active' ? pt.active : link.status === 'expired' ? pt.expired : pt.disabled} ·
        ${fill(t.createdOn, { date: dateOf(language, link.created_at) })}${link.created_by === null ? '' : html` · <span class="created-by">${fill(teamTextOf(language).by, { who: link.created_by })}</span>`}</span
      >
      ${tagList(language, link.tags)} ${rowActions(language, link, view.changes !== false)}
    </li>`;
  const empty =
    q !== '' ? fill(t.noMatches, { q }) : health === '' ? t.noLinks : healthTextOf(language).noBroken;
  return html`<section class="card" aria-labelledby="links-title">
    <h2 id="links-title">${t.yourLinks}</h2>
    <form method="get" action="/account" class="search" role="search">
      <label for="q">${t.searchLabel}</label>
      <div class="copy-row">
        <input id="q" name="q" type="search" value="${q}" maxlength="200" aria-describedby="q-hint" />
        <button type="submit" class="button">${t.search}</button>
      </div>
      ${health === '' ? '' : html`<input type="hidden" name="health" value="${health}" />`}
      <small class="hint" id="q-hint">${t.searchHint}</small>
      ${view.searchError === undefined ? '' : html`<p id="search-error" class="error" role="alert">${view.searchError}</p>`}
    </form>
    ${tagFilterLine(language, tag)}
    ${view.healthFilter === true || health !== '' ? healthFilterLine(view, filters) : ''}
    ${listOrNone(view.links.map(item), { id: 'links', class: 'link-list' }, html`<p id="links-status">${empty}</p>`)}
    ${pagerNav(t.yourLinks, { first: view.paged ? query({}) : null, next: view.nextCursor === null ? null : query({ cursor: view.nextCursor }) }, t, q === '' ? '' : html`<a href="/account">${t.clearSearch}</a>`)}
  </section>`;
}

/**
 * The "Broken links" filter (decisions §23): a link to the list of broken links (keeping the search and
 * the tag), or, once filtered, what is shown and the way back to every link of the search and tag.
 */
function healthFilterLine(view: AccountHomeView, filters: Readonly<Record<string, string>>): SafeHtml {
  const t = healthTextOf(view.language);
  const { health: _health, ...rest } = filters;
  const to = (query: Record<string, string>) => {
    const search = new URLSearchParams(query).toString();
    return search === '' ? '/account' : `/account?${search}`;
  };
  if (view.health === 'broken')
    return html`<p id="health-filter">${t.brokenShown} · <a href="${to(rest)}">${t.allLinks}</a></p>`;
  return html`<p id="health-filter">
    <a href="${to({ ...rest, health: 'broken' })}">${t.brokenFilter}</a>
  </p>`;
}
