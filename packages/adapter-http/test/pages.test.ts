import { describe, expect, it } from 'vitest';
import { formToCreateInput } from '../src/pages/form-input.js';
import { SafeHtml, html as markup } from '../src/pages/layout.js';
import { dayChart } from '../src/pages/preview-page.js';
import { textOf } from '../src/pages/text.js';

describe('html', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const value = `<script>"x" & 'y'</script>`;
    expect(markup`<p title="${value}">${value}</p>`.value).toBe(
      '<p title="&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;">&#60;script&#62;&#34;x&#34; &#38; &#39;y&#39;&#60;/script&#62;</p>',
    );
  });

  it('keeps nested templates and lists of them as markup, and drops null, undefined and false', () => {
    const items = ['a<', 'b'].map((item) => markup`<li>${item}</li>`);
    expect(markup`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe(
      '<ul><li>a&#60;</li><li>b</li></ul>0',
    );
    expect(markup`${markup`<br>`}`.value).toBe('<br>');
  });

  it('makes SafeHtml only through the tag: nothing else can mark a string as escaped', () => {
    expect(() => new SafeHtml(Symbol('html'), '<script>')).toThrow(TypeError);
  });
});

describe('formToCreateInput', () => {
  it('leaves out empty fields and trims text but not the password', () => {
    expect(
      formToCreateInput({ url: ' example.com ', alias: '', title: '', password: ' pass ', max_clicks: '' }),
    ).toEqual({
      url: 'example.com',
      password: ' pass ',
    });
  });

  it('turns numbers into numbers, the private box into public_stats false, and a local date into UTC', () => {
    expect(
      formToCreateInput({
        url: 'https://example.com',
        expires_in_days: '1.5',
        max_clicks: 'x',
        private_stats: 'on',
        expires_at: '2030-01-02T03:04',
        utm_source: 'mail',
      }),
    ).toEqual({
      url: 'https://example.com',
      expires_in_days: 1.5,
      max_clicks: Number.NaN,
      public_stats: false,
      expires_at: '2030-01-02T03:04:00Z',
      utm_source: 'mail',
    });
  });
});

describe('dayChart', () => {
  it('draws one titled bar per day, the highest day full height, and a summary', () => {
    const days = [
      { key: '2030-01-01', count: 0 },
      { key: '2030-01-02', count: 4 },
      { key: '2030-01-03', count: 2 },
    ];
    const svg = dayChart(textOf('en'), 'en', days).value;
    const heights = [...svg.matchAll(/<rect class="bar"[^>]* height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(3);
    expect(heights[0]).toBe(0);
    expect(heights[1]).toBeCloseTo(2 * (heights[2] ?? 0));
    expect(svg).toContain('<title>2030-01-02: 4</title>');
    expect(svg).toContain('6 clicks in the last 30 days, at most 4 on one day.');
  });

  it('counts clicks with the plural rules of the page language', () => {
    const one = [{ key: '2030-01-01', count: 1 }];
    expect(dayChart(textOf('en'), 'en', one).value).toContain('1 click in the last 30 days');
    expect(dayChart(textOf('de'), 'de', one).value).toContain('1 Klick in den letzten 30 Tagen');
    expect(dayChart(textOf('de'), 'de', [{ key: '2030-01-01', count: 2 }]).value).toContain('2 Klicks');
    expect(dayChart(textOf('fr'), 'fr', [{ key: '2030-01-01', count: 0 }]).value).toContain('0 clic sur');
    expect(dayChart(textOf('es'), 'es', one).value).toContain('1 clic en');
  });
});
