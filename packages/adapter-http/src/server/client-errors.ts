import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** Parser and timeout errors Node reports before a request exists, and what the client is told. */
const ANSWERS: Readonly<Record<string, readonly [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/**
 * The server's `clientError` handler: a request Node cannot parse (an unknown method token, a broken
 * header, oversize headers, a timeout) gets a 4xx with the error object and the connection is closed, as
 * Node does by default but with the body every other error has. Nothing about the client is logged.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): void {
  const current = (socket as { _httpMessage?: PendingResponse })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent === true) {
    return void socket.destroy();
  }
  const [status, message] = ANSWERS[error.code ?? ''] ?? [400, 'The request is not valid HTTP/1.1.'];
  // An answer to HEAD has no body: a client would read the error object as the next response.
  const head = current?.req?.method === 'HEAD' || error.rawPacket?.toString('latin1', 0, 5) === 'HEAD ';
  endWith(socket, status, head ? null : message);
}

/** What Node keeps on a socket about the response in progress, when the request got that far. */
interface PendingResponse {
  readonly headersSent?: boolean;
  readonly req?: { readonly method?: string };
}

/**
 * The server's `connect` handler: this is no forward proxy, so `CONNECT` is 405 like any other method a
 * path does not take (Node would drop the connection without an answer).
 */
export function refuseConnect(_req: unknown, socket: Duplex): void {
  if (!socket.writable) return void socket.destroy();
  endWith(socket, 405, 'CONNECT is not allowed here.', 'Allow: GET, HEAD\r\n');
}

function endWith(socket: Duplex, status: number, message: string | null, extraHeaders = ''): void {
  if (message === null) {
    return void socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`);
  }
  const body = JSON.stringify({ error: { code: 'invalid_request', message } });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n${extraHeaders}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
