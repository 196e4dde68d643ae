import { describe, expect, it } from 'vitest';
import { checkStart, expiryFromDays, goneReason, hasStarted, linkStatus } from '../src/links/status.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const base = { disabled: false, expiresAt: null, maxClicks: null, clicks: 0 };

describe('link status', () => {
  it.each([
    ['a plain link is active', base, 'active', null],
    ['an expiry in the future keeps it active', { ...base, expiresAt: NOW + 1 }, 'active', null],
    ['it expires at the exact expiry instant', { ...base, expiresAt: NOW }, 'expired', 'expired'],
    ['a past expiry means expired', { ...base, expiresAt: NOW - 1 }, 'expired', 'expired'],
    ['clicks below the cap keep it active', { ...base, maxClicks: 3, clicks: 2 }, 'active', null],
    ['reaching the cap expires it', { ...base, maxClicks: 3, clicks: 3 }, 'expired', 'click_limit'],
    [
      'disabled wins over everything',
      { ...base, disabled: true, expiresAt: NOW - 1 },
      'disabled',
      'disabled',
    ],
  ] as const)('%s', (_name, link, status, reason) => {
    expect(linkStatus(link, NOW)).toBe(status);
    expect(goneReason(link, NOW)).toBe(reason);
  });

  it('re-activates when the expiry moves into the future or is removed', () => {
    const expired = { ...base, expiresAt: NOW - 1 };
    expect(linkStatus(expired, NOW)).toBe('expired');
    expect(linkStatus({ ...expired, expiresAt: NOW + 1000 }, NOW)).toBe('active');
    expect(linkStatus({ ...expired, expiresAt: null }, NOW)).toBe('active');
  });

  it('re-activates when the cap is raised above the clicks or removed', () => {
    const capped = { ...base, maxClicks: 2, clicks: 2 };
    expect(linkStatus({ ...capped, maxClicks: 3 }, NOW)).toBe('active');
    expect(linkStatus({ ...capped, maxClicks: null }, NOW)).toBe('active');
  });

  it('converts expires_in_days to an absolute time', () => {
    expect(expiryFromDays(1, NOW)).toBe(NOW + 86_400_000);
    expect(expiryFromDays(0.01, NOW)).toBe(NOW + 864_000);
  });
});

describe('starts_at (decisions §25)', () => {
  it('has started at its start instant, without one, and for a record made before the field', () => {
    expect(hasStarted({ startsAt: NOW + 1 }, NOW)).toBe(false);
    expect(hasStarted({ startsAt: NOW }, NOW)).toBe(true);
    expect(hasStarted({ startsAt: null }, NOW)).toBe(true);
    expect(hasStarted({} as { startsAt: null }, NOW)).toBe(true);
  });

  it('refuses a start at or after the expiry, on starts_at', () => {
    expect(checkStart({ startsAt: NOW, expiresAt: NOW + 1 }).ok).toBe(true);
    expect(checkStart({ startsAt: NOW, expiresAt: null }).ok).toBe(true);
    expect(checkStart({ startsAt: null, expiresAt: NOW }).ok).toBe(true);
    for (const expiresAt of [NOW, NOW - 1]) {
      const refused = checkStart({ startsAt: NOW, expiresAt });
      expect(refused.ok ? null : [refused.error.code, refused.error.field]).toEqual([
        'invalid_request',
        'starts_at',
      ]);
    }
  });
});
