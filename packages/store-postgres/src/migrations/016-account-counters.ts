/**
 * Counters summed per account (issue 40, decisions §18), as SQLite's migration 020: `account_counters`
 * holds what `visit_counters` holds with the link left out (the account's links summed), and
 * `account_link_days` and `account_link_weeks` each link's `total` per UTC day and per week (its Monday),
 * so an account's statistics read a few hundred rows and a row per link and week, not every counter of
 * every link.
 *
 * Triggers keep them. Every statement writing `visit_counters` (a fold's or an import's upsert, a copy,
 * pruning) adds its difference once, from its transition tables: a fold of a thousand counters is one
 * grouped upsert, not a thousand; one of anonymous links only looks their accounts up. A link that
 * changes account (claimed) takes its counts along; a link deleted takes them away first (by the time
 * its counters go by cascade, the link is gone and the counters' trigger finds no account).
 *
 * Concurrency: a writer of one account's sums takes its lock first (`account_sums_lock`, an advisory lock
 * held to the end of the transaction): the store's counter writes (counter-writes.ts) and a claim or
 * delete (the links' trigger), so they wait for each other instead of deadlocking over the account's rows
 * (an upsert of counters fires two triggers, its inserted rows' and its updated rows', each in key order
 * but not together). A bulk statement (pruning, a copy) takes none, as it could take thousands: one
 * trigger, one run in key order. Counter writes lock their links FOR KEY SHARE as they read the links'
 * accounts, and the index `links_id_account` makes `account_id` a key column, so a claim locks the link
 * FOR UPDATE: it waits for counter writes in flight and then reads their counts, or they wait for it and
 * then read its account. Everything locks in one order: links, counters, accounts' locks, sums.
 */

/** The difference a statement made, per trigger: rows of (link_id, day, dimension, key, count). */
const CHANGES = {
  added: 'SELECT link_id, day, dimension, key, count FROM added',
  changed: `SELECT link_id, day, dimension, key, count FROM added
    UNION ALL SELECT link_id, day, dimension, key, -count AS count FROM removed`,
  removed: 'SELECT link_id, day, dimension, key, -count AS count FROM removed',
} as const;

/** Each link's `total` of a day and of a week: a long range reads weeks and its edges' days. */
const PER_LINK = [
  { table: 'account_link_days', period: 'day', of: (day: string) => day },
  { table: 'account_link_weeks', period: 'week', of: (day: string) => `account_week(${day})` },
] as const;

/** Counter rows to add to the sums: `from` and `where` find them, the other fields are expressions. */
interface Counts {
  readonly from: string;
  readonly where?: string;
  readonly account: string;
  readonly link: string;
  readonly count: string;
}

/**
 * The counts added to the three sum tables, each one grouped upsert in key order (writers of one account
 * wait for each other rather than deadlock); a count that nets to zero writes nothing.
 */
const ADD_COUNTS = ({ from, where, account, link, count }: Counts) => {
  const within = (...conditions: string[]) => {
    const all = [...(where === undefined ? [] : [where]), ...conditions];
    return all.length === 0 ? '' : ` WHERE ${all.join(' AND ')}`;
  };
  return `
  INSERT INTO account_counters (account_id, day, dimension, key, count)
    SELECT ${account}, day, dimension, key, sum(${count})::bigint FROM ${from}${within()}
    GROUP BY 1, 2, 3, 4 HAVING sum(${count}) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (account_id, day, dimension, key) DO UPDATE SET count = account_counters.count + excluded.count;${PER_LINK.map(
      ({ table, period, of }) => `
  INSERT INTO ${table} (account_id, ${period}, link_id, count)
    SELECT ${account}, ${of('day')}, ${link}, sum(${count})::bigint FROM ${from}${within("dimension = 'total'")}
    GROUP BY 1, 2, 3 HAVING sum(${count}) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (account_id, ${period}, link_id) DO UPDATE SET count = ${table}.count + excluded.count;`,
    ).join('')}`;
};

/** The trigger function of one kind of write to `visit_counters`. */
const COUNTERS_TRIGGER = (kind: keyof typeof CHANGES) => `
CREATE FUNCTION account_sums_${kind}() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  ids TEXT[];
  accounts TEXT[];
BEGIN
  -- every link written, anonymous ones too, locked in id order: a claim waits (see links_id_account);
  -- FILTER, not WHERE, which would be pushed below the lock and leave the anonymous links unlocked
  SELECT array_agg(id) FILTER (WHERE account_id IS NOT NULL), array_agg(account_id) FILTER (WHERE account_id IS NOT NULL)
    INTO ids, accounts FROM (
    SELECT id, account_id FROM links WHERE id IN (SELECT link_id FROM ${kind === 'added' ? 'added' : 'removed'})
    ORDER BY id FOR KEY SHARE) l;
  IF ids IS NULL THEN RETURN NULL; END IF;
  ${ADD_COUNTS({
    from: `(${CHANGES[kind]}) c JOIN unnest(ids, accounts) AS o (id, account_id) ON o.id = c.link_id`,
    account: 'o.account_id',
    link: 'c.link_id',
    count: 'c.count',
  })}
  RETURN NULL;
END
$$;`;

/**
 * A sum table. A link's are read whole for an account (10,000 links: 80,000 rows for 30 days), grouped
 * by link: on two cores, parallel workers took twice as long (136 ms against 64 ms).
 */
const TABLE = (table: string, columns: string) => `
CREATE TABLE ${table} (
  account_id TEXT COLLATE "C" NOT NULL,
  ${columns
    .split(', ')
    .map((column) => `${column} TEXT COLLATE "C" NOT NULL`)
    .join(', ')},
  count BIGINT NOT NULL,
  PRIMARY KEY (account_id, ${columns})
)${table === 'account_counters' ? '' : ' WITH (parallel_workers = 0)'};`;

export const ACCOUNT_COUNTERS = `
-- an account's sums, locked to the end of the transaction (hashes of the schema and the account)
CREATE FUNCTION account_sums_lock(account TEXT) RETURNS void LANGUAGE sql SET search_path FROM CURRENT AS $$
  SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext(account))
$$;

-- the Monday (UTC) of a day, as the counters' days are written: YYYY-MM-DD
CREATE FUNCTION account_week(day TEXT) RETURNS TEXT LANGUAGE sql STABLE AS $$
  SELECT to_char((day::date - (extract(isodow FROM day::date)::integer - 1))::timestamp, 'YYYY-MM-DD')
$$;
${TABLE('account_counters', 'day, dimension, key')}
${TABLE('account_link_days', 'day, link_id')}
${TABLE('account_link_weeks', 'week, link_id')}
-- made from the counters the schema holds
${ADD_COUNTS({
  from: 'visit_counters c JOIN links l ON l.id = c.link_id',
  where: 'l.account_id IS NOT NULL',
  account: 'l.account_id',
  link: 'c.link_id',
  count: 'c.count',
})}

-- account_id is part of a unique index, so PostgreSQL counts it as a key of links: an UPDATE of it locks
-- the row FOR UPDATE, which conflicts with the FOR KEY SHARE of the counters' triggers (id alone is unique)
CREATE UNIQUE INDEX links_id_account ON links (id, account_id);

${COUNTERS_TRIGGER('added')}
${COUNTERS_TRIGGER('changed')}
${COUNTERS_TRIGGER('removed')}
CREATE TRIGGER account_sums_added AFTER INSERT ON visit_counters REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION account_sums_added();
CREATE TRIGGER account_sums_changed AFTER UPDATE ON visit_counters
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION account_sums_changed();
CREATE TRIGGER account_sums_removed AFTER DELETE ON visit_counters REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION account_sums_removed();

-- a link's counters moved into (sign 1) or out of (-1) an account, all at once
CREATE FUNCTION account_sums_move(link TEXT, account TEXT, sign INTEGER) RETURNS void LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
BEGIN
  ${ADD_COUNTS({ from: 'visit_counters', where: 'link_id = link', account: 'account', link: 'link', count: 'sign * count' })}
END
$$;
CREATE FUNCTION account_sums_link() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM account_sums_lock(a) FROM unnest(ARRAY[OLD.account_id, NEW.account_id]) a WHERE a IS NOT NULL ORDER BY a;
  IF TG_OP = 'DELETE' THEN
    PERFORM account_sums_move(OLD.id, OLD.account_id, -1);
    RETURN OLD;
  END IF;
  IF OLD.account_id IS NOT NULL THEN PERFORM account_sums_move(NEW.id, OLD.account_id, -1); END IF;
  IF NEW.account_id IS NOT NULL THEN PERFORM account_sums_move(NEW.id, NEW.account_id, 1); END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER account_sums_link_moved AFTER UPDATE OF account_id ON links FOR EACH ROW
  WHEN (OLD.account_id IS DISTINCT FROM NEW.account_id) EXECUTE FUNCTION account_sums_link();
CREATE TRIGGER account_sums_link_deleted BEFORE DELETE ON links FOR EACH ROW
  WHEN (OLD.account_id IS NOT NULL) EXECUTE FUNCTION account_sums_link();
`;
