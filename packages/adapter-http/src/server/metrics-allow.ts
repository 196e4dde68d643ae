/** The methods `/metrics` takes, wherever it is served (this server, or the metrics port of its own). */
export const METRICS_ALLOW = 'GET, HEAD';
