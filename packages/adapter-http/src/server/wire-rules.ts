import type { IncomingMessage, Server, ServerOptions } from 'node:http';
import type { Server as NetServer } from 'node:net';

/**
 * Parser options every server of the service takes (issue 24). Node answers an HTTP/1.1 request without
 * `Host` with a bare 400 of its own and keeps the first of two `Host` lines: instead it lets both through
 * (duplicates joined with a comma, as RFC 9110 §5.3 combines repeated fields) and {@link hostProblem}
 * refuses them with the error object.
 */
export const PARSER_OPTIONS = {
  requireHostHeader: false,
  joinDuplicateHeaders: true,
} as const satisfies ServerOptions;

/**
 * Keeps answering a client that half-closes its side after sending a request (`nc -q`, some health
 * checkers; decisions §14). Node's http.Server listens with `allowHalfOpen`, but by default on the
 * client's FIN it aborts the request in progress and ends the socket, so an answer given asynchronously
 * (after a store query, a QR drawing) was lost while its work was done. With `httpAllowHalfOpen`, Node
 * sends the answer in progress and then closes (an idle half-closed connection is closed at once).
 */
export function answerHalfClosedRequests(server: Server | NetServer): void {
  (server as { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen = true;
}

/**
 * Why a request's `Host` is unacceptable (RFC 9112 §3.2: an HTTP/1.1 request without one, or with more
 * than one, is a 400), or null. A repeated `Host` arrives joined by {@link PARSER_OPTIONS}, and no host
 * name has a comma: one look at a string the redirect path reads anyway.
 */
export function hostProblem(req: IncomingMessage): string | null {
  const host = req.headers.host;
  if (host === undefined) {
    return req.httpVersionMajor === 1 && req.httpVersionMinor === 0
      ? null
      : 'An HTTP/1.1 request needs a Host header.';
  }
  return host.includes(',') ? 'A request may have only one Host header.' : null;
}
