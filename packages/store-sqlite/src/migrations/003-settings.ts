/** Settings one process records for the others, such as the origins `serve` runs with (decisions §12). */
export const SETTINGS = `
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`;
