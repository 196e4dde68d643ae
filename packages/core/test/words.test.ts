import { describe, expect, it } from 'vitest';
import {
  MAX_RULES,
  MAX_TAGS,
  PERMANENT_STATUS_WORDS,
  REDIRECT_STATUSES,
  REDIRECT_STATUS_WORDS,
  RULE_DEVICES,
  RULE_DEVICE_WORDS,
  RULES_LIMIT_WORDS,
  STATUSES_IN_ORDER,
  TAGS_LIMIT_WORDS,
  orList,
} from '../src/index.js';

describe('the words help texts print', () => {
  it('name the statuses default first, then temporary, then permanent', () => {
    expect(STATUSES_IN_ORDER).toStrictEqual([302, 307, 301, 308]);
    expect([...STATUSES_IN_ORDER].sort()).toStrictEqual([...REDIRECT_STATUSES].sort());
    expect(REDIRECT_STATUS_WORDS).toBe('302, 307, 301 or 308');
    expect(PERMANENT_STATUS_WORDS).toBe('301 or 308');
  });

  it('follow the constants they come from', () => {
    expect(RULE_DEVICE_WORDS.split('|')).toStrictEqual([...RULE_DEVICES]);
    expect(RULES_LIMIT_WORDS).toBe(`at most ${MAX_RULES} rules`);
    expect(TAGS_LIMIT_WORDS).toBe(`at most ${MAX_TAGS} tags`);
    expect([orList([]), orList(['a']), orList(['a', 'b']), orList([1, 2, 3])]).toStrictEqual([
      '',
      'a',
      'a or b',
      '1, 2 or 3',
    ]);
  });
});
