import type { Command } from 'commander';
import { unwrap } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { table } from '../render.js';
import { addClientCommand } from './kit.js';
import type { ClientCommand } from './kit.js';

const TAGS: ClientCommand = {
  spec: 'tags',
  description:
    'List the tags of the account’s links (the key’s, or --account locally) with how many links carry each and their clicks.',
  examples: ['tags', 'tags --json', 'tags --server https://sho.example --key shk_…'],
  run: async ({ client, out }) => {
    const tags = unwrap(await client.tags());
    const rows = tags.map((t) => [t.name, String(t.links), String(t.clicks)]);
    out.print({ tags }, tags.length === 0 ? 'no tags' : table(['TAG', 'LINKS', 'CLICKS'], rows));
  },
};

/** Adds `tags` (decisions §15). */
export function addTagCommands(program: Command, io: CliIo): void {
  addClientCommand(program, TAGS, io);
}
