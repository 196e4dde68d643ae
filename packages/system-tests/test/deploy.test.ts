import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// deploy/shortener.service, checked by systemd's own tools where they are installed.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const unit = join(root, 'deploy/shortener.service');
const hasSystemd = spawnSync('sh', ['-c', 'command -v systemd-analyze']).status === 0;
if (!hasSystemd) console.warn('\n*** SYSTEMD UNIT CHECKS SKIPPED: systemd-analyze is not installed. ***\n');

const dir = mkdtempSync(join(tmpdir(), 'shortener-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasSystemd)('deploy/shortener.service', () => {
  // systemd-analyze wants the unit under its own name, outside the repository's other files
  const copy = join(dir, 'shortener.service');
  copyFileSync(unit, copy);

  it('passes systemd-analyze verify without a warning', () => {
    const run = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect(run.stderr + run.stdout).toBe('');
    expect(run.status).toBe(0);
  });

  it('is hardened: systemd-analyze security rates its exposure 2.0 or better', () => {
    const run = spawnSync('systemd-analyze', ['security', '--offline=yes', '--no-pager', copy], {
      encoding: 'utf8',
    });
    const exposure = /Overall exposure level for shortener\.service: (\d+\.\d)/.exec(run.stdout)?.[1];
    expect(exposure, run.stdout + run.stderr).toBeDefined();
    expect(Number(exposure)).toBeLessThanOrEqual(2);
  });
});

describe('deploy/shortener.service', () => {
  it('starts the launcher docs/production.md names, with the flags and malloc arenas npm start uses', () => {
    const text = readFileSync(unit, 'utf8');
    expect(text).toMatch(
      /^ExecStart=\/usr\/bin\/node --no-memory-reducer --max-old-space-size=512 \S+\/packages\/app\/bin\/shortener\.js serve$/m,
    );
    expect(text).toMatch(/^Environment=MALLOC_ARENA_MAX=2$/m);
    expect(text).toMatch(/^KillSignal=SIGTERM$/m);
  });
});
