import type { SafeHtml } from './layout.js';
import { html } from './layout.js';

/**
 * The table alternative of a chart (issue 26): a disclosure titled `summary`, holding a table with a
 * header row and one row per entry, its first cell the row's header. Read by screen readers, and handy
 * for copying numbers; the chart above it is the picture.
 */
export function chartTable(
  summary: string,
  headers: readonly string[],
  rows: readonly (readonly [string, ...string[]])[],
): SafeHtml {
  return html`<details class="chart-table">
    <summary>${summary}</summary>
    <table>
      <thead>
        <tr>
          ${headers.map((header) => html`<th scope="col">${header}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          ([head, ...cells]) =>
            html`<tr>
              <th scope="row">${head}</th>
              ${cells.map((cell) => html`<td>${cell}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </details>`;
}
