import { z } from 'zod';
import { HEALTH_STATES } from '../links/health.js';
import { LinkSchema } from '../response-schemas.js';
import type { EVENT_TYPES } from './events.js';

/** Output schemas of the events' bodies (decisions §16): `/openapi.json` documents them as `webhooks`. */

const counts = (what: string) =>
  z.record(z.string(), z.number().int().min(0)).describe(`Visits by ${what} in this batch.`);
const day = z.iso.date();

/**
 * `data` of `link.visited`: the counts of one link over one window of `VISIT_EVENT_SECONDS` (decisions
 * §26), never an address.
 */
export const VisitedEventDataSchema = z
  .object({
    link_id: z.string(),
    short_url: z.url(),
    visits: z.number().int().min(0).describe('Visits of this window, humans and bots.'),
    humans: z.number().int().min(0),
    bots: z.number().int().min(0),
    unique: z.number().int().min(0).describe('Visitors new to the link on their day.'),
    countries: counts('country (ISO 3166-1 alpha-2, or unknown)'),
    devices: counts('device'),
    browsers: counts('browser family'),
    referrers: counts('referrer host (direct when none)'),
    from: day.describe('The first UTC day of the visits this event sums.'),
    to: day.describe('The last UTC day of the visits this event sums.'),
  })
  .meta({ id: 'VisitedEventData' });

/** `data` of `domain.verified` and `domain.suspended` (decisions §20): the domain as the check left it. */
export const DomainEventDataSchema = z
  .object({
    id: z.string(),
    host: z.string(),
    state: z.enum(['active', 'suspended']),
    problems: z.array(z.string()).describe('What the check found wrong (empty when verified).'),
    checked_at: z.iso.datetime().nullable(),
    verified_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'DomainEventData' });

/** `data` of `link.health_changed` (decisions §23): the link after the check, and its states. */
export const HealthChangedEventDataSchema = z
  .object({
    link: LinkSchema,
    from: z.enum(HEALTH_STATES),
    to: z.enum(HEALTH_STATES),
  })
  .meta({ id: 'HealthChangedEventData' });

const envelope = <T extends z.ZodType>(type: string, data: T, what: string) =>
  z
    .object({
      type: z.literal(type),
      timestamp: z.iso.datetime().describe('When the change was committed.'),
      account: z
        .string()
        .nullable()
        .describe(
          'The name of the account (a person’s or a team’s) the event belongs to; null for anonymous links.',
        ),
      data,
    })
    .describe(what);

/**
 * Each event's body (`{ type, timestamp, data }`), by type, plus `ping` ("Send test"): POSTed signed
 * as Standard Webhooks; receivers deduplicate on the `webhook-id` header.
 */
export const EVENT_BODY_SCHEMAS = {
  'link.created': envelope('link.created', LinkSchema, 'A link was created.').meta({
    id: 'LinkCreatedEvent',
  }),
  'link.updated': envelope('link.updated', LinkSchema, 'A link was changed.').meta({
    id: 'LinkUpdatedEvent',
  }),
  'link.deleted': envelope('link.deleted', LinkSchema, 'A link was deleted: `data` as it was.').meta({
    id: 'LinkDeletedEvent',
  }),
  'link.visited': envelope(
    'link.visited',
    VisitedEventDataSchema,
    'Visits of a link, summed over one window (at most one event per link per VISIT_EVENT_SECONDS).',
  ).meta({
    id: 'LinkVisitedEvent',
  }),
  'domain.verified': envelope(
    'domain.verified',
    DomainEventDataSchema,
    'An own domain of the account passed its check and is served (at its first pass, and again after a suspension).',
  ).meta({ id: 'DomainVerifiedEvent' }),
  'domain.suspended': envelope(
    'domain.suspended',
    DomainEventDataSchema,
    'An active own domain failed its check three times in a row: its links are not served until it passes.',
  ).meta({ id: 'DomainSuspendedEvent' }),
  'link.health_changed': envelope(
    'link.health_changed',
    HealthChangedEventDataSchema,
    'The checks of a link’s destinations changed its health state (broken after HEALTH_FAILURES failures in a row; ok or redirected again at the first pass).',
  ).meta({ id: 'LinkHealthChangedEvent' }),
  ping: envelope('ping', z.object({}).strict(), '"Send test": checks the endpoint and its secret.').meta({
    id: 'PingEvent',
  }),
} satisfies Record<(typeof EVENT_TYPES)[number] | 'ping', z.ZodType>;
