import { isRuleLanguage, ruleLanguageOf } from '@shortener/core';
import type { RuleDevice, RuleInput, RuleOs } from '@shortener/core';
import { arrayAt, numberOrNull, objectAt, stringOrNull } from '../json.js';

type Conditions = {
  device?: RuleDevice[];
  os?: RuleOs[];
  country?: string[];
  language?: string[];
  query?: Record<string, string>;
  after?: string;
  before?: string;
};

/**
 * Shlink's device types (`DeviceType`) as our rule conditions. Shlink's `mobile` matches any iOS or Android
 * device, tablets included, hence both of our classes; `android` and `ios` are operating systems to us, as are
 * `windows`, `macos` and `linux`. `chromeos` has no counterpart: a rule that asks for it is left out.
 */
const DEVICE_TYPES: Readonly<Record<string, Pick<Conditions, 'device' | 'os'>>> = {
  android: { os: ['android'] },
  ios: { os: ['ios'] },
  windows: { os: ['windows'] },
  macos: { os: ['macos'] },
  linux: { os: ['linux'] },
  mobile: { device: ['mobile', 'tablet'] },
  desktop: { device: ['desktop'] },
};

/** Sets one condition; false when the rule already holds a different one of that kind (Shlink ANDs them). */
function put<K extends keyof Conditions>(when: Conditions, key: K, value: Conditions[K]): boolean {
  if (when[key] !== undefined && JSON.stringify(when[key]) !== JSON.stringify(value)) return false;
  when[key] = value;
  return true;
}

/** One Shlink condition added to `when`; false when we have no equal condition. */
function addCondition(when: Conditions, condition: unknown): boolean {
  const { type, matchKey, matchValue } = objectAt(condition, 'a Shlink rule condition');
  const key = stringOrNull(matchKey);
  const value = stringOrNull(matchValue);
  if (value === null) return false;
  switch (type) {
    case 'device': {
      const mapped = DEVICE_TYPES[value];
      if (mapped === undefined) return false;
      return (
        (mapped.os === undefined || put(when, 'os', mapped.os)) &&
        (mapped.device === undefined || put(when, 'device', mapped.device))
      );
    }
    case 'language':
      // a region comes along (decisions §25): Shlink's `en-US` holds for en-US visitors only, as here
      return isRuleLanguage(value) && put(when, 'language', [ruleLanguageOf(value)]);
    case 'query-param':
      if (key === null || key === '') return false;
      when.query = { ...when.query, [key]: value };
      return true;
    case 'geolocation-country-code':
      return /^[A-Za-z]{2}$/.test(value) && put(when, 'country', [value.toUpperCase()]);
    case 'after-date':
      return put(when, 'after', value);
    case 'before-date':
      return put(when, 'before', value);
    default:
      // ip-address, geolocation-city-name, browser, any-value- and valueless-query-param: none of ours
      return false;
  }
}

/**
 * Shlink's redirect rules (`GET /rest/v3/short-urls/{shortCode}/redirect-rules`) as the rules create takes
 * (decisions §15), in Shlink's priority order. A rule with a condition we cannot express is left out whole:
 * dropping only the condition would send more visitors to its URL than Shlink did.
 */
export function shlinkRules(answer: unknown): RuleInput[] {
  const rules = arrayAt(objectAt(answer, 'Shlink redirect rules').redirectRules, 'Shlink redirectRules');
  const ordered = rules
    .map((rule) => objectAt(rule, 'a Shlink redirect rule'))
    .map((rule, index) => ({ rule, priority: numberOrNull(rule.priority) ?? index }))
    .sort((a, b) => a.priority - b.priority);
  const converted: RuleInput[] = [];
  for (const { rule } of ordered) {
    const url = stringOrNull(rule.longUrl);
    const conditions = arrayAt(rule.conditions, 'a Shlink rule condition list');
    const when: Conditions = {};
    if (url === null || conditions.length === 0) continue;
    if (conditions.every((condition) => addCondition(when, condition))) converted.push({ when, url });
  }
  return converted;
}
