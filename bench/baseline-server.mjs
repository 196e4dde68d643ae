// The same-run baseline: a bare node:http server answering every request with a fixed 302, the most one
// Node process can do on this machine. Prints its port on stdout once listening.
import { createServer } from 'node:http';
import process from 'node:process';

const server = createServer((_req, res) => {
  res.writeHead(302, { Location: 'https://example.com/landing', 'Content-Length': '0' });
  res.end();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
