/**
 * Counters summed per account (issue 40, decisions §18): `account_counters` holds what `visit_counters`
 * holds with the link left out (the account's links summed), and `account_link_days` and
 * `account_link_weeks` each link's `total` per UTC day and per week (from Monday), so an account's statistics read a few hundred rows however many links it has,
 * instead of every counter of every link (10,000 links for 30 days: 2 million rows, seconds).
 *
 * Triggers keep them: every write to `visit_counters` (the compactor's folds, imports, restores,
 * pruning) adds its difference to the link's account; a link that changes account (claimed) takes its
 * counts along; a link deleted takes its counts away before its counters go by cascade (when they go,
 * the link is gone and the delete trigger finds no account). Anonymous links have no account: nothing.
 *
 * It can run again (a database put back to an older version): the sums are made anew from the counters.
 */
/** The Monday (UTC) of the week a day (`YYYY-MM-DD`) falls in: `strftime('%w')` is 0 on Sundays. */
export const WEEK_OF = (day: string) =>
  `date(${day}, '-' || ((CAST(strftime('%w', ${day}) AS INTEGER) + 6) % 7) || ' days')`;

/** Each link's `total` of a day and of a week: a long range reads weeks and its edges' days. */
const PER_LINK = [
  { table: 'account_link_days', period: 'day', of: (day: string) => day },
  { table: 'account_link_weeks', period: 'week', of: WEEK_OF },
] as const;

const UPSERT = (period: string) =>
  `ON CONFLICT (account_id, ${period}, link_id) DO UPDATE SET count = count + excluded.count;`;

/** Where a link's account is looked up: `links` (migration 20), or its owned links' index (migration 22). */
export interface Owners {
  readonly table: string;
  readonly id: string;
}
const LINKS: Owners = { table: 'links', id: 'id' };

/** The owned links' index (migration 22). */
export const OWNED_INDEX: Owners = { table: 'links INDEXED BY links_owned', id: 'id' };

const SUMS = (
  sign: '+' | '-',
  row: 'NEW' | 'OLD',
  count: string,
  account: string,
  link: string,
  owners: Owners = LINKS,
) => `
  INSERT INTO account_counters (account_id, day, dimension, key, count)
    SELECT ${account}, ${row}.day, ${row}.dimension, ${row}.key, ${sign}(${count})
    FROM ${owners.table} WHERE ${owners.id} = ${link} AND ${account} IS NOT NULL
    ON CONFLICT (account_id, day, dimension, key) DO UPDATE SET count = count + excluded.count;${PER_LINK.map(
      ({ table, period, of }) => `
  INSERT INTO ${table} (account_id, ${period}, link_id, count)
    SELECT ${account}, ${of(`${row}.day`)}, ${link}, ${sign}(${count})
    FROM ${owners.table} WHERE ${owners.id} = ${link} AND ${account} IS NOT NULL AND ${row}.dimension = 'total'
    ${UPSERT(period)}`,
    ).join('')}`;

/** Whether the counter row's link has an account: one look for an anonymous link's row, then nothing. */
export const OWNED = (row: 'NEW' | 'OLD', owners: Owners = LINKS) =>
  `EXISTS (SELECT 1 FROM ${owners.table} WHERE ${owners.id} = ${row}.link_id AND account_id IS NOT NULL)`;

/** The triggers that keep the sums through every write to `visit_counters`, made anew. */
export const COUNTER_TRIGGERS = (owners: Owners = LINKS) => `DROP TRIGGER IF EXISTS account_counters_added;
CREATE TRIGGER account_counters_added AFTER INSERT ON visit_counters WHEN ${OWNED('NEW', owners)} BEGIN
  ${SUMS('+', 'NEW', 'NEW.count', 'account_id', 'NEW.link_id', owners)}
END;

DROP TRIGGER IF EXISTS account_counters_changed;
CREATE TRIGGER account_counters_changed AFTER UPDATE OF count ON visit_counters WHEN ${OWNED('NEW', owners)} BEGIN
  ${SUMS('+', 'NEW', 'NEW.count - OLD.count', 'account_id', 'NEW.link_id', owners)}
END;

DROP TRIGGER IF EXISTS account_counters_removed;
CREATE TRIGGER account_counters_removed AFTER DELETE ON visit_counters WHEN ${OWNED('OLD', owners)} BEGIN
  ${SUMS('-', 'OLD', 'OLD.count', 'account_id', 'OLD.link_id', owners)}
END;
`;

/** A link's counters moved in or out of an account, all at once (a claim, a delete). */
export const MOVED = (sign: '+' | '-', account: string, link: string, counters = 'visit_counters') => `
  INSERT INTO account_counters (account_id, day, dimension, key, count)
    SELECT ${account}, day, dimension, key, ${sign}count FROM ${counters}
    WHERE link_id = ${link} AND ${account} IS NOT NULL
    ON CONFLICT (account_id, day, dimension, key) DO UPDATE SET count = count + excluded.count;${PER_LINK.map(
      ({ table, period, of }) => `
  INSERT INTO ${table} (account_id, ${period}, link_id, count)
    SELECT ${account}, ${of('day')}, ${link}, ${sign}SUM(count) FROM ${counters}
    WHERE link_id = ${link} AND ${account} IS NOT NULL AND dimension = 'total' GROUP BY ${of('day')}
    ${UPSERT(period)}`,
    ).join('')}`;

/** The per-link tables, made anew from the counters. */
const PER_LINK_TABLES = PER_LINK.map(
  ({ table, period, of }) => `
CREATE TABLE IF NOT EXISTS ${table} (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  ${period} TEXT NOT NULL,
  link_id TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (account_id, ${period}, link_id)
) WITHOUT ROWID;
DELETE FROM ${table};
INSERT INTO ${table} (account_id, ${period}, link_id, count)
  SELECT l.account_id, ${of('c.day')}, c.link_id, SUM(c.count) FROM visit_counters c
  JOIN links l ON l.id = c.link_id WHERE l.account_id IS NOT NULL AND c.dimension = 'total'
  GROUP BY l.account_id, ${of('c.day')}, c.link_id;`,
).join('');

export const ACCOUNT_COUNTERS = `
CREATE TABLE IF NOT EXISTS account_counters (
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  dimension TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (account_id, day, dimension, key)
) WITHOUT ROWID;

${PER_LINK_TABLES}

DELETE FROM account_counters;

INSERT INTO account_counters (account_id, day, dimension, key, count)
  SELECT l.account_id, c.day, c.dimension, c.key, SUM(c.count) FROM visit_counters c
  JOIN links l ON l.id = c.link_id WHERE l.account_id IS NOT NULL
  GROUP BY l.account_id, c.day, c.dimension, c.key;

${COUNTER_TRIGGERS()}
DROP TRIGGER IF EXISTS account_counters_link_moved;
CREATE TRIGGER account_counters_link_moved AFTER UPDATE OF account_id ON links
  WHEN OLD.account_id IS NOT NEW.account_id BEGIN
  ${MOVED('-', 'OLD.account_id', 'NEW.id')}
  ${MOVED('+', 'NEW.account_id', 'NEW.id')}
END;

DROP TRIGGER IF EXISTS account_counters_link_deleted;
CREATE TRIGGER account_counters_link_deleted BEFORE DELETE ON links BEGIN
  ${MOVED('-', 'OLD.account_id', 'OLD.id')}
END;
`;
