import { DEFAULT_LIMITS } from '@shortener/core';
import type { ServiceConfig } from '@shortener/core';

/** A service configuration for document tests: two short domains on https, the default limits. */
export function serviceConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    shortDomains: [
      { origin: 'https://s.example', host: 's.example' },
      { origin: 'https://go.example', host: 'go.example' },
    ],
    baseUrl: 'https://short.example',
    extraReservedSlugs: [],
    blocklist: [],
    allowPrivateHosts: false,
    limits: DEFAULT_LIMITS,
    ...overrides,
  };
}
