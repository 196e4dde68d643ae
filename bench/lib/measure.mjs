// The measurements besides the redirect rounds: creation, statistics, QR codes, store commits.
import { openSqliteDatabase } from '@shortener/store-sqlite';
import { BROWSER_UA, loadRound } from './load.mjs';

/** Link creation through `POST /api/v1/links` (one link per request) and `POST /api/v1/bulk` (200). */
export async function measureCreation(url, key, amount) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const create = {
    method: 'POST',
    path: '/api/v1/links',
    headers,
    body: '{"url":"https://example.com/created"}',
  };
  // a warm-up, as the redirect rounds have: the measured round is the server's steady state, not V8
  // compiling the creation path (a cold 5,000-request round cost about 330 CPU-µs a link, a warm one 228)
  await loadRound({ url, amount: Math.max(2_000, Math.round(amount / 5)), expect: 201, requests: [create] });
  const single = await loadRound({ url, amount, expect: 201, requests: [create] });
  const bulkBody = JSON.stringify({
    urls: Array.from({ length: 200 }, (_, i) => `https://example.com/bulk/${i}`),
  });
  const bulk = await loadRound({
    url,
    amount: Math.max(50, Math.round(amount / 200)),
    connections: 10,
    expect: 200,
    requests: [{ method: 'POST', path: '/api/v1/bulk', headers, body: bulkBody }],
  });
  return {
    single: { ...single, linksPerSecond: ((single.statuses[201] ?? 0) / single.responses) * single.rps },
    bulk: { ...bulk, linksPerSecond: ((bulk.statuses[200] ?? 0) / bulk.responses) * bulk.rps * 200 },
  };
}

/** Sequential `GET /api/v1/links/{id}/stats?days=30` on one connection: latency percentiles. */
export async function measureStats(url, key, linkId, amount) {
  const headers = { authorization: `Bearer ${key}` };
  const first = await fetch(`${url}/api/v1/links/${linkId}/stats?days=30`, { headers });
  const body = await first.json();
  const round = await loadRound({
    url,
    amount,
    connections: 1,
    expect: 200,
    requests: [{ method: 'GET', path: `/api/v1/links/${linkId}/stats?days=30`, headers }],
  });
  return { ...round, total: body.total, status: first.status };
}

/** QR PNG and SVG throughput, or a note when the routes do not exist (404). */
export async function measureQr(url, host, slug, amount) {
  const results = {};
  for (const format of ['png', 'svg']) {
    const path = `/${slug}.${format}`;
    const probe = await fetch(`${url}${path}`, { headers: { host } });
    await probe.arrayBuffer();
    if (probe.status !== 200) {
      results[format] = { skipped: `GET ${path} answered ${probe.status}` };
      continue;
    }
    const headers = { host, 'user-agent': BROWSER_UA };
    results[format] = await loadRound({
      url,
      amount,
      connections: 10,
      expect: 200,
      requests: [{ method: 'GET', path, headers }],
    });
  }
  return results;
}

/**
 * Watches the database from a connection of its own: `PRAGMA data_version` changes whenever another
 * connection commits, so polling it every 2 ms counts the server's write transactions (a lower bound if
 * two commits fall within one poll; with one write per redirect it would change at every poll).
 */
export function openObserver(dbPath) {
  const db = openSqliteDatabase(dbPath);
  const version = db.prepare('PRAGMA data_version').pluck();
  // the links' folded clicks (their rows' and those kept apart, migration 033) and the visit log's
  // unfolded ones (migration 012)
  const clicks = db
    .prepare(
      `SELECT (SELECT COALESCE(SUM(clicks), 0) FROM links WHERE id != @id)
        + (SELECT COALESCE(SUM(clicks), 0) FROM link_clicks WHERE link_id != @id)
        + (SELECT COALESCE(SUM(clicks), 0) FROM visit_log WHERE link_id != @id)`,
    )
    .pluck();
  // the visit log's length: seq is the rowid, its two edges a cheap look (store-sqlite's LOG_SIZE)
  const logSize = db
    .prepare('SELECT COALESCE((SELECT MAX(seq) FROM visit_log) - (SELECT MIN(seq) FROM visit_log) + 1, 0)')
    .pluck();
  let commits = 0;
  let last = version.get();
  let timer = null;
  return {
    start() {
      commits = 0;
      last = version.get();
      timer = setInterval(() => {
        const now = version.get();
        if (now !== last) commits++;
        last = now;
      }, 2);
    },
    stop() {
      clearInterval(timer);
      return commits;
    },
    /** About how many entries the visit log holds (what the server's compactor has not folded yet). */
    logSize: () => logSize.get(),
    /** Clicks recorded on every link but `exceptId`. */
    clicks: (exceptId) => clicks.get({ id: exceptId }),
    close: () => db.close(),
  };
}

/**
 * An import of `rows` CSV rows through `POST /api/v1/imports` (decisions §17), timed from the request to
 * the job's `done`, polled every 100 ms, while `during()` runs (the redirect load of the same run): rows a
 * second, whether every row was imported, and what `during` answered.
 */
export async function measureImport(url, key, rows, during = async () => null) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const lines = Array.from(
    { length: rows },
    // codes no seeded slug has (a hyphen); no click column: the shutdown check counts served clicks
    (_, i) => `https://old.bench/imp-${i},https://example.com/imported/${i},Row ${i}`,
  );
  const csv = ['short url,long url,title', ...lines].join('\n');
  const started = performance.now();
  const answer = await fetch(`${url}/api/v1/imports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ source: 'csv', csv }),
  });
  if (answer.status !== 202) throw new Error(`import: ${answer.status} ${await answer.text()}`);
  const { id } = await answer.json();
  const load = await during();
  for (;;) {
    const job = await (await fetch(`${url}/api/v1/imports/${id}`, { headers })).json();
    if (job.state === 'done' || job.state === 'failed') {
      const seconds = (performance.now() - started) / 1000;
      return { rows, imported: job.imported, state: job.state, seconds, rowsPerSecond: rows / seconds, load };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
