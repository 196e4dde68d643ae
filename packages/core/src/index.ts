// prettier-ignore
export type {
  Account, AccountChanges, AccountKind, ApiKeyRecord, IdentityLink, KeyOrigin, KeyRole, MemberRole, Membership, MembershipChange,
  Role, TeamInviteRecord,
} from './accounts/account.js';
export type { Member } from './accounts/account-ports.js';
export type { AuthenticatedKey, KeyLimits } from './accounts/accounts.js';
// prettier-ignore
export {
  accountNameKey, authenticateApiKey, createAccount, createApiKey, FULL_KEY, findAccount, findAccountByName, makeApiKey,
  isAccountName, listApiKeys, normalizeAccountName, revokeApiKey, setAccountDisabled,
} from './accounts/accounts.js';
export type {
  ChallengePurpose,
  ChallengeRecord,
  InviteRecord,
  Passkey,
  SessionRecord,
} from './accounts/credentials.js';
export {
  INVITE_TTL_MS,
  acceptInviteWithPassword,
  consumeInvite,
  inviteAccount,
  resetLinkFor,
  openInvite,
  signUp,
} from './accounts/invites.js';
export type { Invite, OpenInvite, SignUpDeps } from './accounts/invites.js';
export {
  ApiKeyListSchema,
  ApiKeySchema,
  CreateKeyInput,
  CreatedApiKeySchema,
  toApiKeyView,
} from './accounts/key-schemas.js';
export type { ApiKeyView } from './accounts/key-schemas.js';
export {
  beginPasskeyRegistration,
  PASSKEY_OPTIONS_PER_MINUTE,
  beginPasskeySignIn,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  renamePasskey,
} from './accounts/passkeys.js';
export type { PasskeyDeps, PasskeyEnrolment } from './accounts/passkeys.js';
// prettier-ignore
export {
  SESSION_IDLE_MS, SESSION_MAX_MS, adminCallerOf, authenticateSession, endSession, endSessionById,
  RECENT_SIGN_IN_MS, listSessions, requireRecentSignIn, sessionExpired, startSession,
} from './accounts/sessions.js';
export type { SignedIn } from './accounts/sessions.js';
export {
  PASSWORD_LENGTH,
  SIGN_IN_LIMITS,
  changePassword,
  checkNewPassword,
  confirmSignIn,
  setAccountPassword,
  signIn,
  signInWithPassword,
} from './accounts/sign-in.js';
export type { ThrottledDeps } from './accounts/sign-in.js';
export {
  TOKEN_GUESS_LIMIT,
  guessUnderLimit,
  underTokenGuessLimit,
  spendGuess,
  tokenGuessBudget,
  tooManyGuesses,
} from './limits/guess-limit.js';
export type {
  AdmittedGuess,
  GuessBudget,
  GuessLimitDeps,
  RefusedGuess,
  Throttled,
} from './limits/guess-limit.js';
export { DEFAULT_LIMITS, findShortDomain, parseShortDomain, shortDomainForHost } from './config.js';
export type { LimitsConfig, ServiceConfig, ShortDomain, SignupMode } from './config.js';
export { ANONYMOUS } from './deps.js';
export type { Caller, CoreDeps } from './deps.js';
export { ERROR_CODES, domainError } from './errors.js';
export type { DomainError, ErrorCode } from './errors.js';
export { classifyStoreErrors, isStoreUnavailable, storeUnavailable } from './store-unavailable.js';
export type { StoreUnavailableError } from './store-unavailable.js';
export { LANGUAGES, countText, errorMessage, pickLanguage } from './i18n.js';
export type { Language } from './i18n.js';
export { linkAccess } from './links/access.js';
export { LINK_PASSWORD_TRIES, guessLinkPassword } from './links/link-password.js';
export { QR_PNG_UNITS_PER_MINUTE, pngCost, spendCreations, spendQrBudget } from './limits/budgets.js';
export type { BudgetDeps } from './limits/budgets.js';
export { createLinkWithinBudget, createLinksWithinBudget } from './limits/admitted.js';
export type { Budgeted, BudgetedDeps } from './limits/admitted.js';
export type { AccessRule } from './links/access.js';
export { checkAlias, claimLinks, setLinkDisabled } from './links/alias-and-claim.js';
export { bulkLimit, bulkUrls, createLinks } from './links/bulk.js';
export type { BulkItem } from './links/bulk.js';
export { UNUSED_LINK, createLink, creationExpiry, destinationOf, urlPolicyOf } from './links/create-link.js';
export type { CreatedLink } from './links/create-link.js';
export { FIXED_LINK_FIELDS, isChangeableLinkField } from './links/link.js';
export type {
  FixedLinkField,
  LinkChanges,
  LinkRecord,
  LinkStatus,
  RedirectStatus,
  UnlistedLinkFields,
} from './links/link.js';
export { PLAIN, checkPermanent, organisedOf, serverRedirectStatus } from './links/organise.js';
export type { Organised, OrganiseInput } from './links/organise.js';
export {
  MAX_RULES,
  RULE_DEVICES,
  RULE_OSES,
  RuleInput,
  RuleViewSchema,
  RuleWhenInput,
  RulesField,
  checkRules,
  isRuleLanguage,
  ruleLanguageOf,
  toRuleView,
  utmOf,
} from './links/rules.js';
export { COUNTRY_CODES, isCountryCode } from './links/countries.js';
export {
  OS_NAMES,
  SHORT_DESTINATION_MAX,
  languageNamer,
  otherwiseSummary,
  regionNamer,
  ruleConditionsText,
  ruleKeyLabeller,
  ruleSummary,
  ruleWordsOf,
  shortDestination,
} from './links/rule-summary.js';
export type { RuleLike } from './links/rule-summary.js';
export type { RedirectRule, RuleConditions, RuleDevice, RuleOs, RuleView } from './links/rules.js';
export {
  acceptedLanguages,
  forwardQuery,
  isPermanent,
  needsEveryVisit,
  pickRule,
  routeVisit,
  routingOf,
  ruleKey,
  statusOf,
} from './links/routing.js';
export type { LinkRouting, RouteVisit, RoutedVisit } from './links/routing.js';
export { robotsTxt } from './links/robots.js';
export {
  MAX_TAGS,
  TAG_RULE,
  TagFilterField,
  TagsField,
  isTag,
  listTags,
  normalizeTags,
  tagKey,
  tagKeysOf,
} from './links/tags.js';
export type { TagCount } from './links/tags.js';
export { ExportedLink, importLink, toExportedLink } from './links/link-export.js';
export type { ExportedLinkExtras } from './links/link-export.js';
export {
  decodeCursor,
  deleteLink,
  encodeCursor,
  getLink,
  listAllLinks,
  exportLinks,
  listLinks,
  loadLinkFor,
  updateLink,
} from './links/manage-links.js';
export type { LinkPage } from './links/manage-links.js';
export {
  findLinkShown,
  findRedirectLink,
  followLink,
  followLinkNow,
  redirectKey,
  redirectState,
} from './links/redirect.js';
export type { RedirectOutcome, Visit } from './links/redirect.js';
export {
  findLinkByReference,
  findLinkShownByReference,
  isLinkId,
  locateSlug,
  resolveDomain,
} from './links/references.js';
export { RESERVED_SLUGS, normalizeSlug, randomSlug, validateAlias } from './links/slug.js';
export { createLinkChangeHub } from './links/change-hub.js';
export type { LinkChangeHub, LinkChangeSource } from './links/change-hub.js';
export { checkStart, expiryFromDays, goneReason, hasStarted, linkStatus } from './links/status.js';
export type { GoneReason } from './links/status.js';
export { shortUrlOf, toLinkView, toPublicLinkView } from './links/view.js';
export {
  HEALTH_REASONS,
  HEALTH_STATES,
  HOST_TURN_HOLD_MS,
  HostGate,
  HostGateClosedError,
  UNKNOWN_HEALTH,
  combineChecks,
  destinationsOf,
  hostOf,
  judgeProbe,
  nextHealth,
} from './links/health.js';
export type {
  CheckResult,
  DestinationProbe,
  HealthConfig,
  HealthReason,
  HealthState,
  HostTurns,
  LinkHealth,
  ProbeResult,
} from './links/health.js';
export {
  CHECKS_PER_MINUTE,
  RECENT_CLICKS_MS,
  checkDueLinks,
  checkLinkHealth,
  checkLinkNow,
} from './links/check-health.js';
export type { CheckNowDeps, HealthDeps } from './links/check-health.js';
export { parseInput, unstorableTextError } from './parse.js';
export { findUnstorableText, isStorableText } from './text.js';
// prettier-ignore
export type {
  AccountStore, AccountVisitReads, ClickIncrement, Clock, CounterIncrement, CredentialStore, DayCount, DimensionCount, GeoLookup, IdentityStore,
  KeyCount, LinkChange, LinkChangeFeed, LinkChangeListener, LinkCursor, LinkListQuery, LinkStore,
  NewPasskey, PasskeyCeremony, RandomSource, RateDecision, RateLimiter, RateWindow, SessionStore,
  SettingStore, Stores, TeamStore, UserAgentParser, VisitBatch, VisitDimension, VisitorDescription, VisitorSighting,
  VisitStore,
} from './ports.js';
export {
  AliasCheckSchema,
  BulkResultSchema,
  ClaimResultSchema,
  ErrorDetailSchema,
  ErrorSchema,
  LinkListSchema,
  LinkHealthSchema,
  LinkSchema,
  PublicLinkSchema,
  StatsAcrossSchema,
  StatsSchema,
  TagListSchema,
} from './response-schemas.js';
export type {
  AliasCheckView,
  LinkView,
  PublicLinkView,
  StatsAcrossView,
  StatsView,
} from './response-schemas.js';
export { err, ok } from './result.js';
export type { Result } from './result.js';
// prettier-ignore
export {
  BulkInput, CheckAliasInput, ClaimInput, CreateLinkInput, ListLinksQuery, QrPngQuery, QrSvgQuery,
  REDIRECT_STATUSES, RedirectStatusField, UTM_FIELD_NAMES, UpdateLinkInput,
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
export { isPrivateAddress, limitSubjectOf } from './urls/ip.js';
export { mergeUtm } from './urls/utm.js';
export { validateTargetUrl } from './urls/validate-url.js';
export type { UrlPolicy } from './urls/validate-url.js';
export * from './visits/index.js';
export { csvCells, csvText, neutraliseCell, restoreCell } from './csv-cells.js';
export {
  CSV_TAG_SEPARATOR,
  EXPORTED_LINK_CSV_COLUMNS,
  LINK_CSV_COLUMNS,
  LINK_CSV_JSON_COLUMNS,
  linkCsvRow,
} from './links/link-csv.js';
export type { LinkCsvColumn } from './links/link-csv.js';
export * from './events/index.js';
export {
  DomainEventDataSchema,
  EVENT_BODY_SCHEMAS,
  HealthChangedEventDataSchema,
  VisitedEventDataSchema,
} from './events/event-schemas.js';
export { SERVICE_INFO } from './version.js';
export {
  PERMANENT_STATUS_WORDS,
  REDIRECT_STATUS_WORDS,
  RULE_DEVICE_WORDS,
  RULE_OS_WORDS,
  RULES_LIMIT_WORDS,
  STATUSES_IN_ORDER,
  TAGS_LIMIT_WORDS,
  orList,
} from './links/words.js';
export { IDEMPOTENCY_RUN_MS, IDEMPOTENCY_TTL_MS, createIdempotently } from './links/idempotency.js';
export type {
  IdempotencyClaim,
  IdempotencyDeps,
  IdempotentRequest,
  IdempotentRun,
} from './links/idempotency.js';
// Imports (decisions §17) and visits that found nothing (§18), a name list a line.
// prettier-ignore
export { IMPORT_SOURCES } from './imports/source.js';
// prettier-ignore
export type { ImportRow, ImportSource, ImportSourceName, ImportStep, ImportedDay, ImportedVisit } from './imports/source.js';
// prettier-ignore
export {
  IMPORT_JOB_COLUMNS,
  IMPORT_REPORT_COLUMNS,
  MAX_JOB_ERRORS,
  IMPORT_STATES,
  NO_COUNTS,
  importJobValues,
  isOpenImport,
  importReportRow,
  summaryOf,
} from './imports/import-job.js';
// prettier-ignore
export type {
  ImportChunk, ImportCounts, ImportJob, ImportTotal, ImportJobSummary, ImportOptions, ImportOutcome, ImportReportLine, ImportState, ImportStore,
  ImportedLinkWrite, PlacedReportLine,
} from './imports/import-job.js';
export { importProgressOf } from './imports/import-progress.js';
export type { ImportProgress } from './imports/import-progress.js';
export { CHUNK_ROWS, IMPORT_LEASE_MS, LostImportJob, runImportJob } from './imports/import-runner.js';
export type { ImportDeps, ImportPacing } from './imports/import-runner.js';
export {
  BACKGROUND_MAX_PAUSE_MS,
  BACKGROUND_MIN_SHARE,
  BACKGROUND_PACE_WINDOW_MS,
  createBackgroundPacer,
  backgroundPauseMs,
  backgroundShare,
  createWaitingWorkPacer,
  waitingWorkPauseMs,
} from './pacing.js';
export type { Pace, ProcessMeter } from './pacing.js';
export { countsOfRow } from './imports/import-visits.js';
export { decodeHtmlEntities } from './imports/html-entities.js';
export { DATE_FORMAT_TOKENS, DateFormatField, dateReaderOf } from './imports/date-format.js';
export type { DateReader } from './imports/date-format.js';
export type { ImportedCounts, VisitReaders } from './imports/import-visits.js';
// prettier-ignore
export {
  API_IMPORT_SOURCES, BITLY_API_URL, ImportInput, ImportJobSchema, MAX_FILE_NAME, MAX_IMPORT_CSV_BYTES, MAX_OPEN_IMPORTS,
  cancelImport, createImportJob, findImport, importReport, startImport, toImportJobView,
} from './imports/imports.js';
export type { ImportJobView, ImportSecrets, ImportUseDeps, NewImport } from './imports/imports.js';
// prettier-ignore
export {
  MAX_ORPHAN_KEYS_PER_DAY, ORPHAN_TYPES, OrphanQuery, OrphanVisitsSchema, createOrphanRecorder, orphanVisits,
} from './visits/orphans.js';
// prettier-ignore
export type { OrphanCount, OrphanRecorder, OrphanStore, OrphanType, OrphanVisitsView } from './visits/orphans.js';
export { PreviewField, PreviewViewSchema, previewOf } from './links/preview.js';
export type { LinkPreview, PreviewInput } from './links/preview.js';
export {
  SPLIT_MAX_ENTRIES,
  SPLIT_MIN_ENTRIES,
  SPLIT_TOTAL_WEIGHT,
  SplitEntryInput,
  SplitEntrySchema,
  SplitField,
  SplitViewSchema,
  checkSplit,
  pickVariant,
} from './links/split.js';
export type { SplitEntry } from './links/split.js';

// Custom domains (decisions §20)
// prettier-ignore
export {
  DOMAIN_STATES, NO_DOMAIN_SETTINGS, isApexHost, isUnder, normalizeHost, readDomainSettings,
} from './domains/domain.js';
// prettier-ignore
export type {
  AddDomainOutcome, Domain, DomainCheck, DomainSettings, DomainState, DomainStore,
} from './domains/domain.js';
// prettier-ignore
export {
  CHALLENGE_PREFIX, CHECK_EVERY, FAILURES_TO_SUSPEND, PENDING_FOR, challengeValue, decideCheck, domainProblems,
  recordsFor, routingProblem,
} from './domains/verification.js';
export type {
  CheckOutcome,
  DnsRecord,
  DnsRecordType,
  DnsResolver,
  DomainRouting,
} from './domains/verification.js';
// prettier-ignore
export {
  AddDomainInput, DEFAULT_DOMAINS_PER_ACCOUNT, DomainListSchema, DomainSchema, UpdateDomainInput, addDomain, checkDomain,
  RemoveDomainQuery, TlsAllowedQuery, findOwnDomain, listDomains, removeDomain, tlsAllowed, toDomainView, updateDomainSettings,
  verifyDomain,
} from './domains/domains.js';
export type { DomainConfig, DomainDeps, DomainView, RemoveDomainOptions } from './domains/domains.js';
export { createServedHosts, hostWithoutPort } from './domains/served-hosts.js';
export type { ServedHosts } from './domains/served-hosts.js';
// prettier-ignore
export {
  accountFor, ACTIONS, hostAllowed, KEY_ACTIONS, KEY_ROLES, keyRoleWithin, MEMBER_ACTIONS, MEMBER_ROLES, permission,
  permits, roleNeededFor, withinKeyLimits,
} from './accounts/permissions.js';
export type { Action, Grant } from './accounts/permissions.js';
// prettier-ignore
export {
  actingFor, changeMemberRole, createTeam, findTeamInvite, inviteToTeam, joinTeam, keyCaller, listMembers,
  listTeams, MAX_TEAM_INVITE_DAYS, removeMember, sessionCaller, TEAM_INVITE_DAYS, teamCaller, teamInviteUrl,
} from './accounts/teams.js';
export type { TeamInvite, TeamView } from './accounts/teams.js';
export { deleteTeam, listTeamInvites, withdrawTeamInvite } from './accounts/team-admin.js';
export type { DeletedTeam, OpenTeamInvite, TeamDeletionDeps } from './accounts/team-admin.js';
// prettier-ignore
export {
  ChangeMemberInput, CreateTeamInput, CreateTeamInviteInput, DeletedTeamSchema, MemberListSchema, MemberSchema,
  OpenTeamInviteListSchema, OpenTeamInviteSchema, TeamInviteSchema, TeamListSchema, TeamSchema, toDeletedTeamView,
  toMemberView, toOpenTeamInviteView, toTeamInviteView, toTeamView,
} from './accounts/team-schemas.js';
export {
  linkProviderIdentity,
  nameFromClaim,
  parseTeamGroups,
  signInWithProvider,
  unlinkProviderIdentity,
} from './accounts/sso.js';
export type {
  IdentityProvider,
  ProviderIdentity,
  SsoDeps,
  SsoFlow,
  SsoPolicy,
  TeamGroup,
} from './accounts/sso.js';
