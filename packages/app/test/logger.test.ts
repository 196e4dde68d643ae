import { describe, expect, it } from 'vitest';
import { createJsonLogger } from '../src/index.js';

function capture() {
  const lines: string[] = [];
  return { lines, stream: { write: (text: string) => lines.push(text) } };
}

describe('createJsonLogger', () => {
  it('writes one JSON object per line with time, level, message and fields', () => {
    const { lines, stream } = capture();
    createJsonLogger({ stream, now: () => 0 }).info('listening', { url: 'http://127.0.0.1:3000' });
    expect(lines).toEqual([
      '{"time":"1970-01-01T00:00:00.000Z","level":"info","msg":"listening","url":"http://127.0.0.1:3000"}\n',
    ]);
  });

  it('drops lines below the configured level', () => {
    const { lines, stream } = capture();
    const logger = createJsonLogger({ stream, level: 'warn' });
    logger.debug('a');
    logger.info('b');
    logger.warn('c');
    logger.error('d');
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['c', 'd']);
  });

  it('logs debug lines at level debug and not at the default level', () => {
    const verbose = capture();
    createJsonLogger({ stream: verbose.stream, level: 'debug' }).debug('x');
    const quiet = capture();
    createJsonLogger({ stream: quiet.stream }).debug('x');
    expect([verbose.lines.length, quiet.lines.length]).toEqual([1, 0]);
  });

  it('writes errors with their name, message and code', () => {
    const { lines, stream } = capture();
    const error = Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' });
    createJsonLogger({ stream }).error('writing visits failed', { error });
    const entry = JSON.parse(lines[0] ?? '') as { error: Record<string, unknown> };
    expect(entry.error).toMatchObject({ name: 'Error', message: 'disk full', code: 'SQLITE_FULL' });
  });

  it('keeps its own fields when a caller passes the same names', () => {
    const { lines, stream } = capture();
    createJsonLogger({ stream, now: () => 0 }).warn('real', { msg: 'fake', level: 'debug' });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 'warn', msg: 'real' });
  });

  it('survives fields that cannot be serialised', () => {
    const { lines, stream } = capture();
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    createJsonLogger({ stream }).info('odd', { loop });
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'odd', fields: 'unserializable' });
  });
});

describe('createJsonLogger under a persistent fault', () => {
  const parse = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const error = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

  it('writes a repeating error once per window, then one line counting the repeats', async () => {
    const { lines, stream } = capture();
    const logger = createJsonLogger({ stream, repeatWindowMs: 50 });
    for (let i = 0; i < 1000; i += 1) logger.error('request failed', { error });
    expect(lines).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(parse(lines)).toEqual([
      expect.objectContaining({ level: 'error', msg: 'request failed', error: expect.anything() }),
      expect.objectContaining({ level: 'error', msg: 'request failed', repeated: 999, window_ms: 50 }),
    ]);
    logger.error('request failed', { error });
    expect(lines).toHaveLength(3);
  });

  it('keeps different errors, warnings and info lines apart', () => {
    const { lines, stream } = capture();
    const logger = createJsonLogger({ stream, repeatWindowMs: 60_000 });
    for (let i = 0; i < 3; i += 1) {
      logger.error('request failed', { error });
      logger.error('request failed', { error: new Error('disk I/O error') });
      logger.warn('request failed', { error });
      logger.info('listening');
    }
    expect(parse(lines).map((entry) => entry.level)).toEqual([
      'error',
      'error',
      'warn',
      'info',
      'info',
      'info',
    ]);
  });
});
