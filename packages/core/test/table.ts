import { expect, it } from 'vitest';

/**
 * A table-driven test: one case a row of `[input, expected]`, named by `title` as `it.each` names them
 * (`%s`, `%j`, `%i`), each checking that `fn` gives the row's expected value (`toBe`) for its input.
 */
export function itGives<I, O>(title: string, fn: (input: I) => O, rows: readonly (readonly [I, O])[]): void {
  it.each(rows.map(([input, expected]): [I, O] => [input, expected]))(title, (input, expected) => {
    expect(fn(input)).toBe(expected);
  });
}
