import type { Grant } from './accounts/permissions.js';
import type { ServiceConfig } from './config.js';
import type { ServedHosts } from './domains/served-hosts.js';
import type { EventStore } from './events/event-ports.js';
import type {
  AccountStore,
  Clock,
  CredentialStore,
  LinkStore,
  RandomSource,
  SessionStore,
  TeamStore,
  VisitStore,
} from './ports.js';

/** What the use cases run on: the ports and the settings. */
export interface CoreDeps {
  readonly links: LinkStore;
  readonly visits: VisitStore;
  readonly accounts: AccountStore;
  /** Teams' members and invites (decisions §21). */
  readonly teams: TeamStore;
  readonly sessions: SessionStore;
  readonly credentials: CredentialStore;
  /** The outbox and the webhooks (a reset link removes the account's webhooks). */
  readonly events: EventStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly config: ServiceConfig;
  /**
   * Writes the visits served so far before a read that shows clicks or statistics (read-your-writes),
   * however long the flush interval; the use cases that show them call it, so no adapter can forget.
   * Provided by the composition root (the server's visit recorder); absent where nothing records visits.
   */
  readonly settleVisits?: () => Promise<void>;
  /**
   * The accounts' own domains by host (decisions §20): a request on one of them resolves its slugs there.
   * Absent where none are served (the CLI on the database, embedding apps).
   */
  readonly hosts?: ServedHosts;
}

/** Who is asking: an authenticated account (API key) and/or an edit token, either may be absent. */
export interface Caller {
  readonly accountId: string | null;
  readonly editToken: string | null;
  /**
   * The operator at the database (the `shortener` CLI without `--server`), or an admin signed in on
   * `/admin` (`adminCallerOf`): may read, change and delete every link. Never set from a request's own
   * credentials (keys, tokens).
   */
  readonly operator?: boolean;
  /**
   * What the caller holds in `accountId` (decisions §21): a member's role, a key's role and limits.
   * Absent: a person in their own account by their session, or the operator: every action.
   */
  readonly grant?: Grant;
  /** The person behind the call, by a session or a personal key (a team key has none). */
  readonly personId?: string;
  /** Who a change is recorded as (`created_by`, `updated_by`): a person's name, or `key:<prefix>`. */
  readonly by?: string;
}

/** A caller with no credentials. */
export const ANONYMOUS: Caller = { accountId: null, editToken: null };
