/** A service configuration for document tests: two short domains on https, the default limits. */
export { aServiceConfig as serviceConfig } from '@shortener/testkit';
