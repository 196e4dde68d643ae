import { describe, expect, it } from 'vitest';
import { parseInput } from '../src/parse.js';
import { BulkInput, CreateLinkInput, ListLinksQuery, QrPngQuery, UpdateLinkInput } from '../src/schemas.js';
import { CreateKeyInput } from '../src/index.js';
import { StatsQuery } from '../src/visits/stats-query.js';

const codeOf = (r: ReturnType<typeof parseInput>) => (r.ok ? 'ok' : r.error.code);
const fieldOf = (r: ReturnType<typeof parseInput>) => (r.ok ? undefined : r.error.field);

describe('input schemas', () => {
  it.each([
    [{ url: 'https://a.example' }, 'ok', undefined],
    [{}, 'invalid_request', 'url'],
    [{ url: 42 }, 'invalid_request', 'url'],
    [{ url: 'x', title: 't'.repeat(201) }, 'invalid_request', 'title'],
    [{ url: 'x', title: 't'.repeat(200) }, 'ok', undefined],
    [{ url: 'x', password: 'abc' }, 'invalid_request', 'password'],
    [{ url: 'x', password: 'p'.repeat(65) }, 'invalid_request', 'password'],
    [{ url: 'x', expires_in_days: 0.001 }, 'invalid_request', 'expires_in_days'],
    [{ url: 'x', expires_in_days: 3651 }, 'invalid_request', 'expires_in_days'],
    [{ url: 'x', max_clicks: 0 }, 'invalid_request', 'max_clicks'],
    [{ url: 'x', max_clicks: 1.5 }, 'invalid_request', 'max_clicks'],
    [{ url: 'x', expires_at: 'tomorrow' }, 'invalid_request', 'expires_at'],
    [{ url: 'x', public_stats: 'yes' }, 'invalid_request', 'public_stats'],
    [{ url: 'x', maxClicks: 3 }, 'invalid_request', 'maxClicks'],
    [{ url: 'x', title: null, alias: null }, 'ok', undefined],
  ])('CreateLink %j gives %s', (body, code, field) => {
    const result = parseInput(CreateLinkInput, body);
    expect(codeOf(result)).toBe(code);
    expect(fieldOf(result)).toBe(field);
  });

  it('accepts null removals and the empty password in an update', () => {
    const result = parseInput(UpdateLinkInput, {
      title: null,
      expires_at: null,
      max_clicks: null,
      password: '',
    });
    expect(result.ok).toBe(true);
  });

  it('refuses a short password in an update', () => {
    expect(codeOf(parseInput(UpdateLinkInput, { password: 'ab' }))).toBe('invalid_request');
  });

  it('takes bulk URLs as an array or as lines', () => {
    expect(codeOf(parseInput(BulkInput, { urls: ['a', 'b'] }))).toBe('ok');
    expect(codeOf(parseInput(BulkInput, { urls: 'a\nb' }))).toBe('ok');
    expect(codeOf(parseInput(BulkInput, { urls: 3 }))).toBe('invalid_request');
  });

  it('coerces and bounds query parameters', () => {
    expect(parseInput(ListLinksQuery, {})).toEqual({ ok: true, value: { limit: 50 } });
    expect(codeOf(parseInput(ListLinksQuery, { limit: '201' }))).toBe('invalid_request');
    expect(codeOf(parseInput(ListLinksQuery, { limit: 'ten' }))).toBe('invalid_request');
    expect(parseInput(StatsQuery, { days: '7' })).toEqual({ ok: true, value: { days: 7, tz: 'UTC' } });
    expect(codeOf(parseInput(StatsQuery, { days: '0' }))).toBe('invalid_request');
    expect(codeOf(parseInput(StatsQuery, { days: '366' }))).toBe('invalid_request');
    expect(codeOf(parseInput(StatsQuery, { dayz: '3' }))).toBe('invalid_request');
  });

  it.each([
    [{ size: '64', fg: '#000', bg: 'ffffff', margin: '0' }, 'ok'],
    [{ size: '2048', fg: '#11223344' }, 'ok'],
    [{ size: '63' }, 'invalid_request'],
    [{ size: '2049' }, 'invalid_request'],
    [{ margin: '9' }, 'invalid_request'],
    [{ fg: 'red' }, 'invalid_request'],
    [{ bg: '#12345' }, 'invalid_request'],
  ])('QR PNG query %j gives %s', (query, code) => {
    expect(codeOf(parseInput(QrPngQuery, query))).toBe(code);
  });

  it.each([
    [ListLinksQuery, { limit: 'ten' }, 'limit must be a number.'],
    [ListLinksQuery, { limit: '0' }, 'limit must be at least 1.'],
    [ListLinksQuery, { limit: '201' }, 'limit must be at most 200.'],
    [ListLinksQuery, { limit: '1.5' }, 'limit must be a whole number.'],
    [CreateLinkInput, { url: 'x', title: 't'.repeat(201) }, 'title must be at most 200 characters.'],
    [CreateLinkInput, { url: 'x', public_stats: 'yes' }, 'public_stats must be true or false.'],
    [CreateLinkInput, { url: 42 }, 'url must be text.'],
    [BulkInput, { urls: 3 }, 'urls: expected a list of URLs as text, or one text with a URL per line'],
    [BulkInput, { urls: [5] }, 'urls: expected a list of URLs as text, or one text with a URL per line'],
    [BulkInput, { urls: [] }, 'urls must not be empty.'],
    [CreateLinkInput, {}, 'url is required.'],
    [CreateLinkInput, { url: '' }, 'url must not be empty.'],
    [ListLinksQuery, { health: 'maybe' }, 'health must be one of unknown, ok, redirected or broken.'],
    [CreateKeyInput, { name: 'k', role: 'boss' }, 'role must be one of admin, editor, viewer or creator.'],
  ] as const)('%# says what the value must be, plainly: %j', (schema, raw, message) => {
    const result = parseInput(schema, raw);
    expect(result.ok ? null : result.error.message).toBe(message);
  });
});
