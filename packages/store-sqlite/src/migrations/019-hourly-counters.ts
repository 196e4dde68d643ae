/**
 * Hourly `total` and `bots` counters (issue 40, decisions §18): their key is the UTC hour, `00`-`23`, so
 * statistics count days in any time zone. A day's count kept before has no hour: it becomes the day's
 * 00:00 UTC hour, so every count stays (a zone ahead of UTC counts those days' visits on the day they
 * began in UTC; one behind, on the day before). Unfolded log entries keep their `''` key, which core's
 * `decodeLogCounters` reads as `00` too.
 */
export const HOURLY_COUNTERS = `
UPDATE visit_counters SET key = '00' WHERE dimension IN ('total', 'bots') AND key = '';
`;
