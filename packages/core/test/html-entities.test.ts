import { describe, expect, it } from 'vitest';
import { decodeHtmlEntities } from '../src/index.js';

describe('decodeHtmlEntities', () => {
  it("decodes a title's HTML entities once, leaving what is no entity as written", () => {
    const title = 'Tom &amp; Jerry&#8217;s &eacute;t&eacute; &#x2014; &amp;lt;b&amp;gt; AT&T &bogus; &#0;';
    expect(decodeHtmlEntities(title)).toBe(
      'Tom & Jerry\u2019s \u00e9t\u00e9 \u2014 &lt;b&gt; AT&T &bogus; &#0;',
    );
  });
});
