import { readFile } from 'node:fs/promises';
import { CliError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { readCsv } from './csv.js';

/** The text of `file`, or of standard input for `-`. */
export async function readInput(io: CliIo, file: string): Promise<string> {
  if (file === '-') {
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of io.stdin ?? [])
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    return text;
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as { code?: string }).code ?? String(error)} (io_error)`,
      1,
    );
  }
}

/** One record of an import file: its line number and fields, or why it could not be read. */
export type ImportRecord =
  | { readonly line: number; readonly fields: Record<string, unknown> }
  | { readonly line: number; readonly invalid: string };

/**
 * The records of an import file: JSON lines (what `export` writes), or CSV with a header row whose
 * names are matched case-insensitively. A byte order mark is skipped; rows of empty cells are skipped.
 */
export function importRecords(text: string, format: 'jsonl' | 'csv'): ImportRecord[] {
  if (format === 'csv') {
    const [header, ...rows] = readCsv(text);
    if (header === undefined) return [];
    if ('invalid' in header)
      throw new CliError(`line ${header.line}: ${header.invalid} (invalid_request)`, 1);
    const names = header.cells.map((h) => h.trim().toLowerCase());
    return rows.flatMap((row): ImportRecord[] => {
      if ('invalid' in row) return [row];
      if (row.cells.every((cell) => cell.trim() === '')) return [];
      return [{ line: row.line, fields: Object.fromEntries(names.map((n, j) => [n, row.cells[j] ?? ''])) }];
    });
  }
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .flatMap((line, i): ImportRecord[] => {
      if (line.trim() === '') return [];
      try {
        const fields: unknown = JSON.parse(line);
        if (typeof fields === 'object' && fields !== null && !Array.isArray(fields)) {
          return [{ line: i + 1, fields: fields as Record<string, unknown> }];
        }
      } catch {
        // reported below
      }
      return [{ line: i + 1, invalid: 'This line is not a JSON object.' }];
    });
}
