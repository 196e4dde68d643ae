import { randomBytes } from 'node:crypto';
import { SCALE_TESTS_VARIABLE } from '@shortener/testkit';
import type { Connection } from 'mysql2/promise';
import { createConnection } from 'mysql2/promise';

/** The MariaDB the YOURLS suite uses: `MARIADB_URL` (`.ci/run` sets it), else root on loopback. */
export const MARIADB_URL = process.env.MARIADB_URL || 'mysql://root@127.0.0.1:3306';

/**
 * A connection to the MariaDB as root, or null when none answers: the suite then skips with a loud banner,
 * unless `SHORTENER_SCALE_TESTS=required` (as `.ci/run` sets it), which fails the run instead, as the
 * PostgreSQL and Redis suites do (`scaleBackendUrl`).
 */
export async function connectMariaDb(): Promise<Connection | null> {
  try {
    return await createConnection({ uri: MARIADB_URL, connectTimeout: 3000, multipleStatements: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (process.env[SCALE_TESTS_VARIABLE] === 'required') {
      throw new Error(
        `MariaDB is required (${SCALE_TESTS_VARIABLE}=required) but ${MARIADB_URL} answered: ${reason}`,
      );
    }
    console.warn(
      `\n*** YOURLS (MARIADB) TESTS SKIPPED: no MariaDB at ${MARIADB_URL} (${reason}). ` +
        'Start one, or set MARIADB_URL=mysql://root@127.0.0.1:3306 (.ci/run does). ***\n',
    );
    return null;
  }
}

/** A name no other run uses, for a throwaway database or user. */
export const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;

/** `MARIADB_URL` with another user and database. */
export function urlFor(user: string, password: string, database: string): string {
  const url = new URL(MARIADB_URL);
  url.username = user;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * YOURLS's tables as its installer makes them: YOURLS/YOURLS `includes/functions-install.php`
 * (`yourls_create_sql_tables`, YOURLS 1.10.5-dev, database version 507), with the prefix of the tables.
 */
export function yourlsTables(prefix: string): string {
  return `
CREATE TABLE IF NOT EXISTS \`${prefix}url\` (
 \`keyword\` varchar(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL DEFAULT '',
 \`url\` text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
 \`title\` text COLLATE utf8mb4_unicode_ci DEFAULT NULL,
 \`timestamp\` timestamp NOT NULL DEFAULT current_timestamp(),
 \`ip\` varchar(41) COLLATE utf8mb4_unicode_ci NOT NULL,
 \`clicks\` int(10) unsigned NOT NULL,
 PRIMARY KEY (\`keyword\`),
 KEY \`ip\` (\`ip\`),
 KEY \`timestamp\` (\`timestamp\`),
 KEY \`url_idx\` (\`url\`(30))
) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE TABLE IF NOT EXISTS \`${prefix}options\` (
 \`option_id\` bigint(20) unsigned NOT NULL auto_increment,
 \`option_name\` varchar(64) COLLATE utf8mb4_unicode_ci NOT NULL default '',
 \`option_value\` longtext COLLATE utf8mb4_unicode_ci NOT NULL,
 PRIMARY KEY  (\`option_id\`,\`option_name\`),
 KEY \`option_name\` (\`option_name\`)
) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
CREATE TABLE IF NOT EXISTS \`${prefix}log\` (
 \`click_id\` int(11) NOT NULL auto_increment,
 \`click_time\` datetime NOT NULL,
 \`shorturl\` varchar(100) BINARY NOT NULL,
 \`referrer\` varchar(200) NOT NULL,
 \`user_agent\` varchar(255) NOT NULL,
 \`ip_address\` varchar(41) NOT NULL,
 \`country_code\` char(2) NOT NULL,
 PRIMARY KEY  (\`click_id\`),
 KEY \`shorturl\` (\`shorturl\`)
) AUTO_INCREMENT=1 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`;
}
