import { describe, expect, it } from 'vitest';
import { csvText } from '../src/index.js';

describe('csvText (decisions §25 "CSV out")', () => {
  it('quotes every cell holding a comma, a quote, a CR or an LF, and ends every row with CRLF', () => {
    const cells = { a: "Invoice\n=cmd|' /C calc'!A0", b: 'x\ry', c: 'say "hi", twice', d: 'plain' };
    expect(csvText(['a', 'b', 'c', 'd'], [cells])).toBe(
      'a,b,c,d\r\n"Invoice\n=cmd|\' /C calc\'!A0","x\ry","say ""hi"", twice",plain\r\n',
    );
  });

  it('guards a cell starting with a formula, and writes null and absent values as empty cells', () => {
    const text = csvText(
      ['v', 'w', 'x'],
      [
        { v: '=1+1', w: null },
        { v: '\r=1', x: false },
      ],
    );
    expect(text).toBe('v,w,x\r\n\'=1+1,,\r\n"\'\r=1",,false\r\n');
  });

  it('writes the header alone for no rows', () => {
    expect(csvText(['url', 'alias'], [])).toBe('url,alias\r\n');
  });
});
