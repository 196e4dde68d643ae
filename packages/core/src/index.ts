export type { Account, ApiKeyRecord } from './accounts/account.js';
export {
  authenticateApiKey,
  createAccount,
  createApiKey,
  findAccount,
  listApiKeys,
  revokeApiKey,
} from './accounts/accounts.js';
export { DEFAULT_LIMITS, findShortDomain, parseShortDomain, shortDomainForHost } from './config.js';
export type { LimitsConfig, ServiceConfig, ShortDomain } from './config.js';
export { ANONYMOUS } from './deps.js';
export type { Caller, CoreDeps } from './deps.js';
export { ERROR_CODES, domainError } from './errors.js';
export type { DomainError, ErrorCode } from './errors.js';
export { LANGUAGES, errorMessage, pickLanguage } from './i18n.js';
export type { Language } from './i18n.js';
export { linkAccess } from './links/access.js';
export type { AccessRule } from './links/access.js';
export { checkAlias, claimLinks, setLinkDisabled } from './links/alias-and-claim.js';
export { bulkLimit, bulkUrls, createLinks } from './links/bulk.js';
export type { BulkItem } from './links/bulk.js';
export { createLink, creationExpiry, destinationOf, urlPolicyOf } from './links/create-link.js';
export type { CreatedLink } from './links/create-link.js';
export type { LinkChanges, LinkRecord, LinkStatus } from './links/link.js';
export {
  decodeCursor,
  deleteLink,
  encodeCursor,
  getLink,
  listAllLinks,
  listLinks,
  loadLinkFor,
  updateLink,
} from './links/manage-links.js';
export type { LinkPage } from './links/manage-links.js';
export { findRedirectLink, followLink, followLinkNow, redirectKey, redirectState } from './links/redirect.js';
export type { RedirectOutcome, Visit } from './links/redirect.js';
export { findLinkByReference, isLinkId, locateSlug, resolveDomain } from './links/references.js';
export { RESERVED_SLUGS, normalizeSlug, randomSlug, validateAlias } from './links/slug.js';
export { expiryFromDays, goneReason, linkStatus } from './links/status.js';
export type { GoneReason } from './links/status.js';
export { shortUrlOf, toLinkView, toPublicLinkView } from './links/view.js';
export { parseInput } from './parse.js';
export type {
  AccountStore,
  ClickIncrement,
  Clock,
  CounterIncrement,
  DimensionCount,
  GeoLookup,
  KeyCount,
  LinkCursor,
  LinkListQuery,
  LinkStore,
  RandomSource,
  RateDecision,
  RateLimiter,
  RateWindow,
  Stores,
  UserAgentParser,
  VisitBatch,
  VisitDimension,
  VisitorDescription,
  VisitorSighting,
  VisitStore,
} from './ports.js';
export {
  AliasCheckSchema,
  BulkResultSchema,
  ClaimResultSchema,
  ErrorSchema,
  LinkListSchema,
  LinkSchema,
  PublicLinkSchema,
  StatsSchema,
} from './response-schemas.js';
export type { AliasCheckView, LinkView, PublicLinkView, StatsView } from './response-schemas.js';
export { err, ok } from './result.js';
export type { Result } from './result.js';
export {
  BulkInput,
  CheckAliasInput,
  ClaimInput,
  CreateLinkInput,
  ListLinksQuery,
  QrPngQuery,
  QrSvgQuery,
  StatsQuery,
  UTM_FIELD_NAMES,
  UpdateLinkInput,
} from './schemas.js';
export type { UtmField } from './schemas.js';
export {
  digestsEqual,
  generateSecret,
  hashPassword,
  randomUuid,
  sha256Hex,
  verifyPassword,
} from './secrets.js';
export { parseBlocklist } from './urls/blocklist.js';
export { isPrivateAddress } from './urls/ip.js';
export { mergeUtm } from './urls/utm.js';
export { validateTargetUrl } from './urls/validate-url.js';
export type { UrlPolicy } from './urls/validate-url.js';
export { countryCode, referrerHost } from './visits/classify.js';
export { createVisitRecorder } from './visits/recorder.js';
export type { TrackedVisit, VisitRecorder, VisitRecorderDeps } from './visits/recorder.js';
export { getStats, top } from './visits/stats.js';
export { addDays, dayOf, hashVisitor } from './visits/visitor-hash.js';
