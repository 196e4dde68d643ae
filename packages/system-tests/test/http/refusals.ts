import { expect } from 'vitest';
import { expectError } from './harness.js';
import type { Json, TestServer } from './harness.js';

/**
 * Creates a link once for each `[value, code]` of `cases`, the value put in the body by `bodyOf`, and
 * expects each refused (400) with its code on `field`: a URL field is checked as any destination is.
 */
export async function expectRefusedEach(
  server: TestServer,
  field: string,
  bodyOf: (value: string) => Json,
  cases: readonly (readonly [string, string])[],
): Promise<void> {
  for (const [value, code] of cases) {
    const refused = await server.api('/api/v1/links', {
      json: { url: 'https://example.com/', ...bodyOf(value) },
    });
    expect((await expectError(refused, 400, code)).field).toBe(field);
  }
}
