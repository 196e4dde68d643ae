import { describe, expect, it } from 'vitest';
import { locateSlug } from '../src/links/references.js';

describe('locating a slug from what a person pastes', () => {
  it('reads short URLs, preview URLs and host/slug, the host lower-cased and the slug as given', () => {
    expect(locateSlug('https://S.example/Promo', 'a.example')).toEqual({ host: 's.example', slug: 'Promo' });
    expect(locateSlug('http://localhost:3000/promo+', 'a.example')).toEqual({
      host: 'localhost:3000',
      slug: 'promo',
    });
    expect(locateSlug('s.example/promo', 'a.example')).toEqual({ host: 's.example', slug: 'promo' });
  });

  it('puts a bare slug on the default host and gives up on what is no URL', () => {
    expect(locateSlug(' Promo ', 'a.example')).toEqual({ host: 'a.example', slug: 'Promo' });
    expect(locateSlug('http://[bad/x', 'a.example')).toBeNull();
  });
});
