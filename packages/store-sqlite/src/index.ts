export { isMemoryPath, openSqliteDatabase } from './database.js';
export { MIGRATIONS, migrate, userVersion } from './migrations/index.js';
export type { Migration } from './migrations/index.js';
export { createSqliteAccountStore } from './sqlite-account-store.js';
export { createSqliteLinkStore } from './sqlite-link-store.js';
export { createSqliteStores, openSqliteStores } from './sqlite-stores.js';
export type { SqliteStoreOptions, SqliteStores } from './sqlite-stores.js';
export { createSqliteVisitStore } from './sqlite-visit-store.js';
