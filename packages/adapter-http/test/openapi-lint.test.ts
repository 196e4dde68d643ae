import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/route-tables.js';
import { serviceConfig } from './config.js';

// The served document through two linters this project did not write, as generated clients and API
// gateways would read it: Redocly CLI (`recommended`) and Spectral (`spectral:oas`).

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** A package's bin script, run with this Node (no PATH look-up, no npx). */
const binOf = (pkg: string, bin: string): string => {
  const manifest = require.resolve(`${pkg}/package.json`);
  const bins = (require(manifest) as { bin: Record<string, string> }).bin;
  return join(dirname(manifest), bins[bin] ?? '');
};

const config = serviceConfig();

// Both tools phone home unless told not to; a test never does.
const QUIET = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  NO_COLOR: '1',
};

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortener-openapi-'));
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(config)));
});

/** Runs a linter; its exit code says whether it found something, which the caller reads from the report. */
async function lint(args: string[]): Promise<string> {
  try {
    return (await run(process.execPath, args, { cwd: dir, env: QUIET, maxBuffer: 16 << 20 })).stdout;
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof code === 'number' && code === 1) return stdout ?? '';
    throw new Error(`linter failed: ${stderr ?? String(error)}`);
  }
}

describe('the OpenAPI document under third-party linters', () => {
  it('has no Redocly `recommended` error or warning', async () => {
    writeFileSync(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
    const out = await lint([binOf('@redocly/cli', 'redocly'), 'lint', file, '--format=json']);
    type Problem = { ruleId: string; message: string; location: { pointer?: string }[] };
    const problems = (JSON.parse(out) as { problems: Problem[] }).problems;
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  }, 60_000);

  it('has no Spectral `spectral:oas` error, warning, hint or note', async () => {
    writeFileSync(join(dir, '.spectral.json'), JSON.stringify({ extends: ['spectral:oas'] }));
    const [ruleset, output] = [join(dir, '.spectral.json'), join(dir, 'spectral.json')];
    await lint([
      binOf('@stoplight/spectral-cli', 'spectral'),
      'lint',
      file,
      '-r',
      ruleset,
      '-f',
      'json',
      '-o',
      output,
    ]);
    const results = JSON.parse(readFileSync(output, 'utf8')) as {
      code: string;
      message: string;
      path: string[];
    }[];
    expect(results.map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  }, 60_000);
});
