export { CSV_ALIASES } from './csv/columns.js';
export type { CsvField } from './csv/columns.js';
export { csvSource } from './csv/csv-source.js';
