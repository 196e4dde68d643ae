import { z } from 'zod';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { validateTargetUrl } from '../urls/validate-url.js';

/** How a link looks where it is shared (decisions §19): what link-preview robots are shown. */
export interface LinkPreview {
  readonly title: string | null;
  readonly description: string | null;
  /** An https URL under the URL rules, never fetched by the server. */
  readonly image: string | null;
}

/** The `preview` field of create, bulk, update and import. */
export const PreviewField = z
  .strictObject({
    title: z.string().max(120).nullish().describe('At most 120 characters.'),
    description: z.string().max(300).nullish().describe('At most 300 characters.'),
    image: z
      .string()
      .max(4096)
      .nullish()
      .describe('An https URL of an image, checked like a destination and never fetched by the server.'),
  })
  .describe(
    'What chat and social apps show of the link: link-preview robots get a page with these as Open Graph and Twitter card tags; people are redirected as always.',
  );
export type PreviewInput = z.infer<typeof PreviewField>;

/** The preview as the Link object shows it. */
export const PreviewViewSchema = z
  .object({ title: z.string().nullable(), description: z.string().nullable(), image: z.string().nullable() })
  .nullable()
  .describe('The social preview, or null.');

const text = (value: string | null | undefined): string | null => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

/**
 * The preview as stored: empty texts are none, the image passes every URL check and must be https
 * (field `preview.image`); a preview of nothing is null.
 */
export function previewOf(
  input: PreviewInput | null | undefined,
  policy: UrlPolicy,
): Result<LinkPreview | null> {
  if (input === undefined || input === null) return ok(null);
  const image = text(input.image);
  let checked: string | null = null;
  if (image !== null) {
    const url = validateTargetUrl(image, policy);
    if (!url.ok) return err({ ...url.error, field: 'preview.image' });
    if (!url.value.startsWith('https:')) {
      return err(domainError('invalid_url', 'The preview image must be an https URL.', 'preview.image'));
    }
    checked = url.value;
  }
  const preview = { title: text(input.title), description: text(input.description), image: checked };
  return preview.title === null && preview.description === null && preview.image === null
    ? ok(null)
    : ok(preview);
}
