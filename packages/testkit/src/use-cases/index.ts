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

/** Runs every core use case against one store backend, so core and store are proven together. */
export function describeUseCaseSuites(name: string, open: () => Promise<Stores>): void {
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
}
