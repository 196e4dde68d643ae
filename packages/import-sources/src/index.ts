export { CSV_ALIASES } from './csv/columns.js';
export type { CsvField } from './csv/columns.js';
export { csvSource } from './csv/csv-source.js';
export type { FetchLike, Sleep } from './http.js';
export { shlinkSource } from './shlink/shlink-source.js';
export type { ShlinkSourceOptions } from './shlink/shlink-source.js';
export { kuttSource } from './kutt/kutt-source.js';
export type { KuttSourceOptions } from './kutt/kutt-source.js';
