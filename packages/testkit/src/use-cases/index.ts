import type { Stores } from '@shortener/core';
import { describeAccountNamesSuite } from './account-names-suite.js';
import { describeAccountsSuite } from './accounts-suite.js';
import { describeCreateLinkSuite } from './create-link-suite.js';
import { describeManageLinksSuite } from './manage-links-suite.js';
import { describePasskeySuite } from './passkey-suite.js';
import { describeSignInSuite } from './sign-in-suite.js';
import { describeStatsZonesSuite } from './stats-zones-suite.js';
import { describeVisitsSuite } from './visits-suite.js';
import { describeBudgetSuite } from './budget-suite.js';
import { describeImportSuite } from './import-suite.js';
import { describeImportJobsSuite } from './import-jobs-suite.js';
import { describeTeamsSuite } from './teams-suite.js';

/** What a backend can do to its stores that the ports cannot: make them unable to write, as a full disk does. */
export interface BackendFaults {
  /** Makes the stores' next writes fail as a full disk does (SQLITE_FULL, SQLSTATE 53100); returns the undo. */
  readonly fillDisk?: (stores: Stores) => Promise<() => Promise<void>>;
}

/** Runs every core use case against one store backend, so core and store are proven together. */
export function describeUseCaseSuites(
  name: string,
  open: () => Promise<Stores>,
  faults: BackendFaults = {},
): void {
  describeCreateLinkSuite(name, open);
  describeBudgetSuite(name, open);
  describeManageLinksSuite(name, open);
  describeVisitsSuite(name, open);
  describeStatsZonesSuite(name, open);
  describeAccountsSuite(name, open);
  describeAccountNamesSuite(name, open);
  describeSignInSuite(name, open);
  describePasskeySuite(name, open);
  describeImportSuite(name, open);
  describeImportJobsSuite(name, open, faults);
  describeTeamsSuite(name, open);
}
