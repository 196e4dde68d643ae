import { join } from 'node:path';
import { LINK_CLICKS_FOLDED, openSqliteDatabase, openSqliteStores } from '@shortener/store-sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBinary, serveBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

beforeAll(buildBinary, 180_000);

const LIMITS = { RATE_LIMIT_ANON_HOUR: '100000', RATE_LIMIT_ANON_DAY: '100000', TRUST_PROXY: 'true' };

/** `shortener serve` as a child process on a free port; resolves once it listens. */
const serve = (dbPath: string) => serveBin(dbPath, LIMITS);

/** Visits the slugs from many addresses, agents and referrers until `stop` is set; errors are ignored. */
async function visitUntil(url: string, slugs: string[], stop: { now: boolean }, worker: number) {
  for (let i = 0; !stop.now; i += 1) {
    const slug = slugs[(i * 7 + worker) % slugs.length]!;
    await fetch(`${url}/${slug}`, {
      redirect: 'manual',
      headers: {
        'x-forwarded-for': `198.51.${worker}.${i % 250}`,
        'user-agent':
          i % 3 === 0 ? `Mozilla/5.0 (iPhone) Mobile Safari/${i % 40}` : 'Mozilla/5.0 Firefox/140.0',
        referer: `https://r${i % 300}.example/page`,
      },
    })
      .then((response) => response.arrayBuffer())
      .catch(() => undefined);
  }
}

describe('a crash of the server', () => {
  it("never leaves a link's clicks apart from its statistics total (kill -9 mid-flush, three times)", async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    let server = await serve(dbPath);
    const slugs: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const body = { url: `https://example.com/${i}`, ...(i % 3 === 0 ? { max_clicks: 1_000_000 } : {}) };
      const created = await fetch(`${server.url}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
        body: JSON.stringify(body),
      });
      slugs.push(((await created.json()) as { slug: string }).slug);
    }
    for (let crash = 0; crash < 3; crash += 1) {
      const stop = { now: false };
      const load = Array.from({ length: 16 }, (_, worker) => visitUntil(server.url, slugs, stop, worker));
      // flushes run every second: kill at a different point of the cycle each time
      await new Promise((resolve) => setTimeout(resolve, 1500 + crash * 330));
      server.child.kill('SIGKILL');
      await server.done;
      stop.now = true;
      await Promise.all(load);
      server = await serve(dbPath);
    }
    server.child.kill('SIGTERM');
    await server.done;

    // what the last run left unfolded in the visit log is folded now, as the next server would
    const stores = openSqliteStores(dbPath);
    while ((await stores.visits.compact(1000)) > 0);
    await stores.close();
    const db = openSqliteDatabase(dbPath);
    const rows = db
      .prepare<[], { slug: string; clicks: number; total: number }>(
        // the clicks folded: the link's row's and its link_clicks row's (migration 033); the totals of
        // both counter tables (a link-day of up to 48 counters is one packed row, migration 034: with
        // fewer visits a link, as on a loaded machine, most days stay packed)
        `SELECT slug, ${LINK_CLICKS_FOLDED.clicks} AS clicks, (SELECT COALESCE(SUM(count), 0) FROM all_counters
           WHERE link_id = links.id AND dimension = 'total') AS total FROM links`,
      )
      .all();
    db.close();
    expect(rows).toHaveLength(30);
    expect(rows.reduce((sum, row) => sum + row.clicks, 0)).toBeGreaterThan(300);
    expect(rows.filter((row) => row.clicks !== row.total)).toEqual([]);
  }, 60_000);
});
