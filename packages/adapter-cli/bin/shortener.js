#!/usr/bin/env -S node --no-memory-reducer --max-old-space-size=512
// The `shortener` binary moved to packages/app/bin/shortener.js with the composition root. This launcher
// stays so that installs started by this path (an older systemd unit, an MCP client's configuration)
// keep working after an upgrade; new ones should name packages/app/bin/shortener.js.
import { URL } from 'node:url';

await import(new URL('../../app/bin/shortener.js', import.meta.url).href);
