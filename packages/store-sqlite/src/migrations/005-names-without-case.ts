import type { Database } from 'better-sqlite3';

/**
 * Account names unique without regard to case (decisions §14): `alice`, `Alice` and `ALICE` are one name.
 * Names are ASCII (letters, digits, `_ . @ -`), so SQLite's `lower()` compares them as the core does.
 */
export const NAMES_WITHOUT_CASE = `
CREATE UNIQUE INDEX accounts_name_lower ON accounts (lower(name));
`;

/**
 * Refuses to migrate a database where names differ only in case, naming them: the operator decides
 * which account keeps its name (rename the others with SQL: `UPDATE accounts SET name = … WHERE id = …`).
 */
export function checkNamesWithoutCase(db: Database): void {
  const rows = db
    .prepare<[], { names: string }>(
      `SELECT group_concat(name || ' (' || id || ')', ', ') AS names FROM accounts
       GROUP BY lower(name) HAVING count(*) > 1 ORDER BY lower(name)`,
    )
    .all();
  if (rows.length === 0) return;
  throw new Error(collisionMessage(rows.map((row) => row.names)));
}

/** The message of a refused migration: every group of names that differ only in case. */
export function collisionMessage(groups: readonly string[]): string {
  return (
    'Account names are now unique without regard to case, and these accounts share a name: ' +
    `${groups.join('; ')}. Rename all but one of each (UPDATE accounts SET name = '…' WHERE id = '…'), ` +
    'then start again. Nothing was changed.'
  );
}
