import type { TeamDeletionDeps } from '@shortener/core';
import type { HttpDeps } from '../deps.js';

/**
 * What deleting a team reaches (decisions §21), for the API and the pages alike: core's stores, and the
 * own domains and import jobs where this server has them.
 */
export const teamDeletionDepsOf = (deps: HttpDeps): TeamDeletionDeps => ({
  ...deps.core,
  ...(deps.domains === undefined ? {} : { domains: deps.domains.domains }),
  ...(deps.imports === undefined ? {} : { imports: deps.imports.imports }),
});
