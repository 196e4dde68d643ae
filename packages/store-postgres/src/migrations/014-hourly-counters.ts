/**
 * Hourly `total` and `bots` counters (issue 40, decisions §18), as SQLite's migration 019: their key is the
 * UTC hour, `00`-`23`; a day's count kept before becomes the day's 00:00 UTC hour, so every count stays.
 * Unfolded log rows keep their `''` key, which core's `decodeLogCounters` reads as `00` too.
 */
export const HOURLY_COUNTERS = `
UPDATE visit_counters SET key = '00' WHERE dimension IN ('total', 'bots') AND key = '';
`;
