// Visits and their statistics (decisions §7, §18): recording, counters, the visit log, ranges and zones.
export { countryCode, referrerHost } from './classify.js';
export {
  capKeys,
  isKeyedDimension,
  keyWithinLimit,
  MAX_KEYS_PER_DAY,
  OTHER_KEY,
  COUNTERS_KEPT_DAYS,
} from './counter-keys.js';
export {
  addTailByDay,
  addTailByDayOf,
  addTailByKey,
  addTailByKeyed,
  UNKEYED_DIMENSIONS,
  addTailByLink,
  decodeLogCounters,
  encodeLogCounters,
  limitTailKeys,
  mergeIncrements,
  tailOfEntries,
  tailWithin,
} from './visit-log.js';
export { createVisitRecorder } from './recorder.js';
export type { TrackedVisit, VisitRecorder, VisitRecorderDeps } from './recorder.js';
export { getStats, getStatsAcross, STATS_MAX_LINKS, top } from './stats.js';
export {
  STATS_DEFAULT_DAYS,
  STATS_MAX_RANGE_DAYS,
  StatsExportQuery,
  StatsQuery,
  statsRange,
  StatsRangeFields,
} from './stats-query.js';
export type { StatsRange } from './stats-query.js';
export { hourOf, isTimeZone, todayIn, zoneDays } from './zone-days.js';
export type { ZoneDays } from './zone-days.js';
export { addDays, dayOf, hashVisitor } from './visitor-hash.js';
export { STATS_CSV_COLUMNS, statsCsvFileName, statsCsvRows } from './stats-csv.js';
export { unpackCounts } from './packed-counts.js';
export type { PackedCount } from './packed-counts.js';
export { mondayOf, summedWeeks, weekSpans, weeksAndEdges } from './week-spans.js';
export type { DaySpan } from './week-spans.js';
