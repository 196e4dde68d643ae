import type { CoreDeps } from '@shortener/core';
import { aLink, aServiceConfig } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { withRouting } from '../src/public/routing.js';

const deps = { core: { config: aServiceConfig() } as unknown as CoreDeps };

describe('withRouting: the link the redirect path caches', () => {
  it('keeps every field of the link found, and adds its routing', () => {
    const link = aLink({ title: 'A title', tags: ['news'], forwardQuery: true, maxClicks: 5 });
    const routed = withRouting(deps, link);
    expect(routed).toEqual({ ...link, routing: expect.objectContaining({ forwardQuery: true }) });
    expect(Object.keys(routed ?? {}).sort()).toEqual([...Object.keys(link), 'routing'].sort());
  });

  it('gives a plain link no routing, and a missing link null', () => {
    expect(withRouting(deps, aLink())?.routing).toBeNull();
    expect(withRouting(deps, null)).toBeNull();
  });
});
