import { expectLegacyCountsKept, legacyCounts, anInsertedLink } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, it } from 'vitest';
import { MIGRATIONS, migrate, openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];

afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});

// the hourly counters are migration 19, whatever comes after them
const HOURLY = 19;

describe(`hourly counters (migration ${HOURLY})`, () => {
  it('keep every daily total and bots count of a version 18 database, in the 00:00 UTC hour, folded or not', async () => {
    const path = nextPath();
    const first = openSqliteStores(path);
    const link = await anInsertedLink(first.links);
    await first.close();
    // the database as version 18 left it: daily totals (key '') folded, and one in the unfolded log
    const legacy = legacyCounts(link.id);
    const raw = new BetterSqlite3(path);
    raw.exec(`INSERT INTO visit_counters (link_id, day, dimension, key, count) VALUES ${legacy.counters};
      INSERT INTO visit_log_epochs (epoch) VALUES (0);
      INSERT INTO visit_log (seq, link_id, counters, clicks, last_click_at, epoch)
        VALUES (1, '${link.id}', '${legacy.logged}', 0, NULL, 0);`);
    // the hourly migration runs again on them; the later ones are in place already
    raw.pragma(`user_version = ${HOURLY - 1}`);
    migrate(
      raw,
      MIGRATIONS.filter((m) => m.version <= HOURLY),
    );
    raw.pragma(`user_version = ${MIGRATIONS.at(-1)?.version ?? HOURLY}`);
    raw.close();

    const stores = openSqliteStores(path);
    opened.push(stores);
    await expectLegacyCountsKept(stores, link.id);
  });
});
