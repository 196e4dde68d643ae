import { CreateLinkInput } from '@shortener/core';
import { z } from 'zod';

// The pages' forms as the route table parses and documents them. A form is a core input in another
// encoding (`application/x-www-form-urlencoded`): every field is text (a repeated field gives its last
// value), a ticked checkbox is `on`, an unticked one is absent. So a form's schema takes text only and
// leaves the input's rules to the handler, which parses the input with core's schema and answers a
// refusal with the page again (never a JSON error a browser would show raw).

/** Text fields by name, as the route table hands them to a form's handler. */
export type FormFields = z.ZodObject<Record<string, z.ZodOptional<z.ZodString>>>;

/** A text field of a form, described. */
export const text = (description: string) =>
  description === '' ? z.string().optional() : z.string().optional().describe(description);

/** A checkbox: `on` when ticked, absent when not. */
export const checkbox = (description: string) => text(`\`on\`: ${description}`);

/** The description of a field, also of one that is optional or nullable around it. */
function descriptionOf(field: z.ZodType): string | undefined {
  const inner =
    'unwrap' in field && typeof field.unwrap === 'function' ? (field.unwrap() as z.ZodType) : null;
  return field.description ?? (inner === null ? undefined : descriptionOf(inner));
}

/**
 * A form schema named `id` in `/openapi.json`: the fields of a core input named in `from` as text, each
 * described as the input describes it (or as `notes` says, where the form differs), and the form's own
 * fields.
 * Other fields are dropped (a browser posts its buttons' names too).
 */
export function formOf<S extends z.ZodRawShape>(
  id: string,
  from: { input: z.ZodObject<S>; names: readonly (keyof S & string)[]; notes?: Record<string, string> },
  own: Record<string, z.ZodOptional<z.ZodString>> = {},
): FormFields {
  const fields = from.names.map((name) => {
    const described = from.notes?.[name] ?? descriptionOf(from.input.shape[name] as z.ZodType);
    return [name, text(described ?? '')] as const;
  });
  return z.object({ ...Object.fromEntries(fields), ...own }).meta({ id });
}

/** The fields of a form that are not a core input's (a confirmation, a token, where to come back to). */
export const plainForm = (id: string, own: Record<string, z.ZodOptional<z.ZodString>>): FormFields =>
  formOf(id, { input: z.object({}), names: [] }, own);

const UTM = Object.keys(CreateLinkInput.shape).filter((name) => name.startsWith('utm_'));

/** The link form (the home page's and the account page's): CreateLink's fields as text. */
export const LinkForm = formOf(
  'LinkForm',
  {
    input: CreateLinkInput,
    names: [
      'url',
      'alias',
      'domain',
      'title',
      'expires_in_days',
      'expires_at',
      'starts_at',
      'max_clicks',
      'password',
      ...(UTM as 'utm_source'[]),
      'tags',
    ],
    notes: {
      expires_at: 'Expiry as an ISO 8601 date-time; without a zone it is read as UTC.',
      starts_at: 'Start as an ISO 8601 date-time; without a zone it is read as UTC.',
      tags: 'Tags separated by commas (decisions §15, §25: a tag may hold spaces); the form shows the field signed in.',
    },
  },
  { private_stats: checkbox('the statistics are private (`public_stats: false`).') },
);
