import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteDatabase } from '@shortener/store-sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@shortener/app';
import { bin, buildBinary, collect, envOf, runBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

// Decisions §25, "Jobs are never stuck": `shortener import --from` killed leaves its job to the next run
// of the same import, which goes on with it; Ctrl-C cancels it (after asking, on a terminal).

beforeAll(buildBinary, 180_000);

const ROWS = 20_000;

interface JobRow {
  readonly id: string;
  readonly state: string;
  readonly counts: string;
}

/** The import jobs in the database at `dbPath`, oldest first. */
function jobsIn(dbPath: string): (JobRow & { rows: number; imported: number })[] {
  const db = openSqliteDatabase(dbPath);
  try {
    const rows = db
      .prepare('SELECT id, state, counts FROM import_jobs ORDER BY created_at')
      .all() as JobRow[];
    return rows.map((row) => ({ ...row, ...(JSON.parse(row.counts) as { rows: number; imported: number }) }));
  } finally {
    db.close();
  }
}

const countLinks = (dbPath: string): number => {
  const db = openSqliteDatabase(dbPath);
  try {
    return db.prepare('SELECT count(*) FROM links').pluck().get() as number;
  } finally {
    db.close();
  }
};

/** A database with the account alice, and a CSV of {@link ROWS} links beside it. */
async function given(): Promise<{ dbPath: string; file: string; vars: Record<string, string> }> {
  const dir = tempDir();
  const dbPath = join(dir, 'shortener.db');
  const vars = { DB_PATH: dbPath };
  expect((await runBin(bin, ['accounts', 'create', 'alice'], vars)).code).toBe(0);
  const file = join(dir, 'links.csv');
  const lines = Array.from({ length: ROWS }, (_, i) => `https://old.example/k${i},https://example.com/${i}`);
  writeFileSync(file, ['short url,long url', ...lines].join('\n'));
  return { dbPath, file, vars };
}

/** `shortener import --from csv FILE --account alice` as a child process, once it has written rows. */
async function importUnderWay(dbPath: string, file: string) {
  const child = spawn(process.execPath, [bin, 'import', '--from', 'csv', file, '--account', 'alice'], {
    env: envOf({ DB_PATH: dbPath }),
  });
  const { done } = collect(child);
  for (let i = 0; i < 600 && (jobsIn(dbPath)[0]?.rows ?? 0) < 400; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(jobsIn(dbPath)[0]?.state).toBe('running');
  return { child, done };
}

describe('shortener import --from, interrupted (decisions §25)', () => {
  it('killed, is gone on with by the same command once its lease ends, not started anew', async () => {
    const { dbPath, file, vars } = await given();
    const first = await importUnderWay(dbPath, file);
    first.child.kill('SIGKILL');
    await first.done;
    const [killed] = jobsIn(dbPath);
    expect(killed).toMatchObject({ state: 'running' });

    const again = await runBin(bin, ['import', '--from', 'csv', file, '--account', 'alice', '--json'], vars);
    expect(again.code, again.stderr).toBe(0);
    const jobs = jobsIn(dbPath);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: killed!.id, state: 'done', rows: ROWS, imported: ROWS });
    expect(JSON.parse(again.stdout)).toMatchObject({ id: killed!.id, state: 'done', rows: ROWS });
    expect(countLinks(dbPath)).toBe(ROWS);
  }, 90_000);

  it('Ctrl-C without a terminal cancels at once: the job cancelled, what was imported kept', async () => {
    const { dbPath, file } = await given();
    const run = await importUnderWay(dbPath, file);
    run.child.kill('SIGINT');
    const ended = await run.done;
    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain('The import was cancelled: what was imported stays.');
    const [job] = jobsIn(dbPath);
    expect(job).toMatchObject({ state: 'cancelled' });
    expect(job!.rows).toBeGreaterThanOrEqual(400);
    expect(job!.rows).toBeLessThan(ROWS);
    expect(countLinks(dbPath)).toBe(job!.imported);
  }, 60_000);

  it('Ctrl-C on a terminal asks, goes on when told no and cancels when told yes', async () => {
    const { dbPath, file } = await given();
    const asked: string[] = [];
    const runWith = async (answer: string) => {
      let onInterrupt: (() => void) | undefined;
      let stderr = '';
      const code = await runCli(['import', '--from', 'csv', file, '--account', 'alice'], {
        env: { DB_PATH: dbPath },
        stdout: { write: () => true },
        stderr: {
          isTTY: true,
          write: (text: string) => {
            stderr += text;
            // Ctrl-C once the counts show rows written
            if (/[1-9]\d* rows/.test(text) && onInterrupt !== undefined) {
              const interrupt = onInterrupt;
              onInterrupt = undefined;
              interrupt();
            }
            return true;
          },
        },
        interrupts: (handler) => {
          onInterrupt = handler;
          return () => (onInterrupt = undefined);
        },
        ask: async (question) => {
          asked.push(question);
          return answer;
        },
      });
      return { code, stderr };
    };
    const cancelled = await runWith('y');
    expect(asked).toEqual(['Cancel the import? what was imported stays [y/N] ']);
    expect(cancelled.code).toBe(130);
    expect(jobsIn(dbPath)[0]).toMatchObject({ state: 'cancelled' });
    // a new run, told no, imports everything (what the cancelled one imported is skipped)
    const kept = await runWith('n');
    expect(kept.code, kept.stderr).toBe(0);
    expect(asked).toHaveLength(2);
    expect(jobsIn(dbPath)[1]).toMatchObject({ state: 'done', rows: ROWS });
    expect(countLinks(dbPath)).toBe(ROWS);
  }, 90_000);
});

describe('shortener import --from, its progress (issue 52)', () => {
  it('writes plain progress lines without a terminal: done/total, percent, rate and time left, no escapes', async () => {
    const { dbPath, file, vars } = await given();
    const run = await runBin(bin, ['import', '--from', 'csv', file, '--account', 'alice'], vars);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('\x1b');
    expect(run.stderr).not.toContain('\r');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('progress '));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    for (const line of lines) {
      expect(line).toMatch(
        /^progress (\d+ rows|\d+\/20000 rows \(\d+%\))(, [\d.]+ rows\/s)?(, (\d+ min )?\d+ s left)?; \d+ rows: /,
      );
    }
    expect(lines.at(-1)).toMatch(
      /^progress 20000\/20000 rows \(100%\), [\d.]+ rows\/s; 20000 rows: 20000 imported/,
    );
    expect(jobsIn(dbPath)[0]).toMatchObject({ state: 'done', rows: ROWS });
    const db = openSqliteDatabase(dbPath);
    try {
      expect(db.prepare('SELECT file_name, total FROM import_jobs').get()).toEqual({
        file_name: 'links.csv',
        total: ROWS,
      });
    } finally {
      db.close();
    }
  }, 90_000);

  it('draws a bar on a terminal: done/total, percent, rate and time left, redrawn in place', async () => {
    const { file, vars } = await given();
    let stderr = '';
    const code = await runCli(['import', '--from', 'csv', file, '--account', 'alice', '--dry-run'], {
      env: vars,
      stdout: { write: () => true },
      stderr: { isTTY: true, write: (text: string) => ((stderr += text), true) },
    });
    expect(code, stderr).toBe(0);
    const draws = stderr.split('\r\x1b[2K').filter((draw) => draw !== '');
    expect(draws.length).toBeGreaterThanOrEqual(1);
    expect(draws.some((draw) => /^\[[#-]{24}\] \d+\/20000 rows \(\d+%\)/.test(draw))).toBe(true);
    expect(stderr.endsWith('\r\x1b[2K')).toBe(true);
  }, 90_000);
});
