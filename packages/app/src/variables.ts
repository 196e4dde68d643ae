import { z } from 'zod';
import { SettingsSchema } from './config-schema.js';
import type { VariableMeta } from './variable-docs.js';

/** The name of a configuration variable. */
export type VariableName = keyof typeof SettingsSchema.shape;

/** The configuration variables of decisions §1 (plus `RESERVED_SLUGS`), in the order they are checked. */
export const VARIABLE_NAMES = Object.keys(SettingsSchema.shape) as [VariableName, ...VariableName[]];

/** Raw values by variable name, as found in the environment or given as `serve` flags. */
export type RawSettings = Partial<Record<VariableName, string>>;

/** How a variable is offered as a `serve` flag. */
export interface VariableHelp {
  /** The flag's value placeholder; `[bool]` flags may be given bare, meaning true. */
  readonly value: string;
  readonly help: string;
}

const metaOf = (name: VariableName): VariableMeta =>
  SettingsSchema.shape[name].meta() as unknown as VariableMeta;

/** A variable's default as docs/configuration.md shows it: as its description says, else its schema's; `unset`. */
function defaultOf(name: VariableName): string {
  const shown = metaOf(name).shown;
  if (shown !== undefined) return shown;
  const schema: z.ZodType = SettingsSchema.shape[name];
  const fallback = schema instanceof z.ZodDefault ? (schema.def.defaultValue as unknown) : undefined;
  if (fallback === undefined || (Array.isArray(fallback) && fallback.length === 0)) return 'unset';
  return `\`${String(fallback)}\``;
}

/** Help for each variable's `serve` flag, from the settings schema: its help and default. */
export const VARIABLE_HELP: Readonly<Record<VariableName, VariableHelp>> = Object.fromEntries(
  VARIABLE_NAMES.map((name) => {
    const { value, help } = metaOf(name);
    const shown = defaultOf(name);
    return [
      name,
      { value, help: shown === 'unset' ? help : `${help} (default ${shown.replaceAll('`', '')})` },
    ];
  }),
) as Record<VariableName, VariableHelp>;

/** The `serve` flag of a variable: `RATE_LIMIT_ANON_HOUR` → `--rate-limit-anon-hour`. */
export function flagOf(name: VariableName): string {
  return `--${name.toLowerCase().replaceAll('_', '-')}`;
}

/** docs/configuration.md's table of variables (Markdown), from the settings schema: a test keeps them equal. */
export function configurationTable(): string {
  const rows = VARIABLE_NAMES.map((name) => {
    return `| \`${name}\` | ${defaultOf(name)} | ${metaOf(name).doc} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
